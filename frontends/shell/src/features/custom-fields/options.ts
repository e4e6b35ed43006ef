/**
 * A custom field's options list (spec section 5): a new option is added only if it is not
 * empty and not already there. Returns the same array when nothing was added.
 */
export function addOption(options: string[], value: string): string[] {
  const v = value.trim();
  if (!v || options.includes(v)) return options;
  return [...options, v];
}

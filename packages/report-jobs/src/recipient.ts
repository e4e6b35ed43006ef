/**
 * WhatsApp numbers are E.164: a plus, a country code and the subscriber number, 8 to 15
 * digits in all, no leading zero. Spaces and dashes a person types are allowed and dropped.
 */
export function parseRecipient(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const compact = input.replace(/[\s\-()]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : undefined;
}

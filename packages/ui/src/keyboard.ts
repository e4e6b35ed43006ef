/**
 * Keyboard entry in forms, as staff key vouchers in Tally: Enter moves to the next field and
 * submits from the last; Ctrl+S (Cmd+S) saves from anywhere in the form.
 */
const FIELD =
  'input:not([type=hidden]):not([tabindex="-1"]):not([disabled]):not([readonly]), select:not([disabled]), textarea:not([disabled])';

function nextField(form: HTMLFormElement, from: HTMLElement): HTMLElement | null {
  const fields = [...form.querySelectorAll<HTMLElement>(FIELD)].filter((el) => {
    // One stop per radio group: its checked radio, or its first.
    if (el instanceof HTMLInputElement && el.type === 'radio') {
      const group = [...form.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${el.name}"]`)];
      const stop = group.find((r) => r.checked) ?? group[0];
      return stop === el;
    }
    return true;
  });
  const at =
    from instanceof HTMLInputElement && from.type === 'radio'
      ? fields.findIndex((f) => f instanceof HTMLInputElement && f.type === 'radio' && f.name === from.name)
      : fields.indexOf(from);
  return at >= 0 ? (fields[at + 1] ?? null) : null;
}

export function handleFormKeyDown(e: React.KeyboardEvent<HTMLFormElement>): void {
  const form = e.currentTarget;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
    e.preventDefault();
    form.requestSubmit();
    return;
  }
  if (e.key !== 'Enter' || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey || e.nativeEvent.isComposing)
    return;
  const target = e.target as HTMLElement;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLButtonElement) return;
  // An open list (a picker) takes Enter to choose.
  if (target.getAttribute('aria-expanded') === 'true') return;
  if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
  e.preventDefault();
  const next = nextField(form, target);
  if (next) {
    next.focus();
    if (next instanceof HTMLInputElement && next.type !== 'radio') next.select();
  } else form.requestSubmit();
}

/** Remembers what had focus when a dialog opened and gives it back when the dialog closes. */
export function focusReturner(): { opened(): void; closed(): void } {
  let opener: HTMLElement | null = null;
  return {
    opened() {
      const active = document.activeElement;
      opener = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    closed() {
      const el = opener;
      opener = null;
      if (el) setTimeout(() => el.isConnected && el.focus(), 0);
    },
  };
}

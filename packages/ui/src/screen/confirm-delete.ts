import { errorText, useSnackbar } from '@bahi/ui';
import { useState } from 'react';

/**
 * A row's delete behind its confirmation (spec section 7): on success the snackbar says so; a
 * failure closes the confirmation and the screen shows the server's reason (a 409 naming what
 * still refers to a master) or the screen's fallback text.
 */
export function useConfirmDelete<T extends { id: string }>(options: {
  remove(id: string): Promise<unknown>;
  done: string;
  fallback: string;
}) {
  const notify = useSnackbar();
  const [deleting, setDeleting] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await options.remove(deleting.id);
      notify(options.done);
      setError(null);
    } catch (e) {
      setError(errorText(e, options.fallback));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };
  return { deleting, ask: setDeleting, cancel: () => setDeleting(null), confirm, error, busy };
}

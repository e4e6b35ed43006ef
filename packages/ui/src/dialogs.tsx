import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { focusReturner } from './keyboard.ts';

export interface FormDialogProps {
  open: boolean;
  title: string;
  submitLabel?: string;
  busy?: boolean;
  error?: string | null;
  /** The save button stays disabled (spec section 5: e.g. a salary of 0). */
  submitDisabled?: boolean;
  /** A second way to save ('Save and New'): saves and keeps the dialog for the next entry. */
  onSubmitAndNew?(): void;
  onClose(): void;
  onSubmit(): void;
  children: ReactNode;
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  onCancel(): void;
  onConfirm(): void;
}

// Fluent's dialog loads when a dialog first opens, not with every first page.
const FormImpl = lazy(() => import('./dialogs-impl.tsx').then((m) => ({ default: m.FormDialogImpl })));
const ConfirmImpl = lazy(() => import('./dialogs-impl.tsx').then((m) => ({ default: m.ConfirmDialogImpl })));

/**
 * Mounted from the first open on, so closing still animates; focus goes back to the row or
 * button that opened the dialog when it closes.
 */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  const focus = useRef(focusReturner());
  const was = useRef(false);
  if (open && !was.current) focus.current.opened();
  useEffect(() => {
    if (open) setOpened(true);
    else if (was.current) focus.current.closed();
    was.current = open;
  }, [open]);
  // A dialog taken off screen while open (rendered only while in use) gives focus back too.
  useEffect(
    () => () => {
      if (was.current) focus.current.closed();
    },
    [],
  );
  return opened || open;
}

/** A form in a dialog: a failed save keeps it open with the error (spec section 7). */
export function FormDialog(props: FormDialogProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <FormImpl {...props} />
    </Suspense>
  );
}

/** Are you sure? A failed action closes it and the screen shows the error (spec section 7). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmImpl {...props} />
    </Suspense>
  );
}

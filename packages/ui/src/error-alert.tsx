import { lazy, type ReactNode, Suspense } from 'react';

export interface ErrorAlertProps {
  text: string | null | undefined;
  title?: string;
  /** A button beside the text (Retry). */
  action?: ReactNode;
}

// Fluent's message bar loads with the first error shown, not with every first page.
const Impl = lazy(() => import('./error-alert-impl.tsx'));

/** A call failure shown in place (spec section 8): the screen stays open. */
export function ErrorAlert(props: ErrorAlertProps) {
  if (!props.text) return null;
  return (
    <Suspense fallback={<div role="alert">{props.text}</div>}>
      <Impl {...props} />
    </Suspense>
  );
}

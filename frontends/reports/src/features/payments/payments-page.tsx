import { Page } from '@bahi/ui';

/** Payments Report: being built (issue #15). */
export function PaymentsPage() {
  return <Page title="Payments Report">{null}</Page>;
}

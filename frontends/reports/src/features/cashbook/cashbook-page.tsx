import { Page } from '@bahi/ui';

/** Cashbook Report: being built (issue #15). */
export function CashbookPage() {
  return <Page title="Cashbook Report">{null}</Page>;
}

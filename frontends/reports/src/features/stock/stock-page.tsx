import { Page } from '@bahi/ui';

/** Stock Report: being built (issue #15). */
export function StockPage() {
  return <Page title="Stock Report">{null}</Page>;
}

import { Page } from '@bahi/ui';

/** Balances Report: being built (issue #15). */
export function BalancesPage() {
  return <Page title="Balances Report">{null}</Page>;
}

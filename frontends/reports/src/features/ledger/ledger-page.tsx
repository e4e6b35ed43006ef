import { Page } from '@bahi/ui';

/** Ledger: being built (issue #15). */
export function LedgerPage() {
  return <Page title="Ledger">{null}</Page>;
}

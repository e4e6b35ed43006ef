import { Page } from '@bahi/ui';

/** Day-wise Report: being built (issue #15). */
export function DaywisePage() {
  return <Page title="Day-wise Report">{null}</Page>;
}

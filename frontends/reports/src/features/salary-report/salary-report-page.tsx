import { Page } from '@bahi/ui';

/** Salary Payments Report: being built (issue #15). */
export function SalaryReportPage() {
  return <Page title="Salary Payments Report">{null}</Page>;
}

import type { CashParams, SalaryRow } from '@bahi/contracts';
import { MONTH_NAMES } from '@bahi/contracts/months';
import { api } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions } from '@bahi/ui/screen';

// A row of GET /reports/salary-report (the amount is in the city's currency, whoever paid it),
// typed by the route's response schema (issue #19).
export type { SalaryRow };

export const MONTHS = MONTH_NAMES;

/** Spec section 9: the current year and the 4 before it. */
export const salaryYears = (now: Date = new Date()): number[] =>
  Array.from({ length: 5 }, (_, i) => now.getFullYear() - i);

/** 'November 2026'. */
export const salaryFor = (r: Pick<SalaryRow, 'month' | 'year'>): string => {
  const name = MONTHS[r.month - 1];
  return name ? `${name} ${r.year}` : `${r.month}/${r.year}`;
};

export type SalaryFilters = {
  city_id: string;
  collector_id: string;
  /** '1'..'12' or '' (All). */
  month: string;
  /** A year or '' (All). */
  year: string;
};

export const salaryReportQuery = (params: SalaryFilters & { page: number; limit: number }) =>
  queryOptions({
    queryKey: ['reports', 'salary-report', params],
    queryFn: ({ signal }) =>
      api.get<Page<SalaryRow>>('/reports/salary-report', params satisfies CashParams, signal),
    placeholderData: keepPreviousData,
    // A city's salaries: nothing is asked until the tabs have chosen one.
    enabled: !!params.city_id,
  });

import type { PaidForMonth } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

/** GET /transactions/salary-payments/paid-for-month: what is paid of a month's salary (city currency). */
export const paidForMonthQuery = (collectorId: string, month: string, year: string) =>
  queryOptions({
    queryKey: ['transactions', 'salary-paid', { collectorId, month, year }],
    queryFn: ({ signal }) =>
      api.get<PaidForMonth>(
        '/transactions/salary-payments/paid-for-month',
        { collector_id: collectorId, month, year },
        signal,
      ),
    staleTime: 0,
  });

import type { TransferRow as Transfer } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { isoDay, keepPreviousData, type Page, queryOptions } from '@bahi/ui/screen';

// A row of GET /transactions/transfers (amounts in each collector's city currency): the route's
// schema (issue #19).
export type { Transfer };

export interface TransferParams {
  page: number;
  limit: number;
  from_collector_id: string;
  to_collector_id: string;
  /** 'YYYY-MM-DD' or '' */
  startDate: string;
  endDate: string;
}

export const transfersQuery = (params: TransferParams) =>
  queryOptions({
    queryKey: ['transactions', 'transfers', params],
    queryFn: ({ signal }) =>
      api.get<Page<Transfer>>(
        '/transactions/transfers',
        {
          ...params,
          startDate: params.startDate ? isoDay(params.startDate) : '',
          endDate: params.endDate ? isoDay(params.endDate) : '',
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

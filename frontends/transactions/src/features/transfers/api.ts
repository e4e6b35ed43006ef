import { api } from '@bahi/ui';
import { isoDay, keepPreviousData, type Page, queryOptions } from '@bahi/ui/screen';

interface TransferCollector {
  id: string;
  name: string;
  city: { name: string | null; currency_name: string | null };
}

/** A row of GET /transactions/transfers: amounts in each collector's city currency. */
export interface Transfer {
  id: string;
  transfer_date: string;
  sent_amount: string;
  transfer_charge: string;
  operation: '*' | '/';
  rate: string;
  /** What the receiver got: (sent - charge) x or / rate. */
  amount: string;
  remarks: string | null;
  fromCollector: TransferCollector | null;
  toCollector: TransferCollector | null;
}

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

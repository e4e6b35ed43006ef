import { api } from '@bahi/ui';
import { isoDay, keepPreviousData, type Page, queryOptions } from '@bahi/ui/screen';

/** An expense or an other income as a list shows it (both answer the same shape, named apart). */
export interface CashEntry {
  id: string;
  /** 'YYYY-MM-DD' */
  date: string;
  city_id: string;
  category: string;
  amount: string;
  party_type: 'Collector' | 'Godown';
  party_id: string;
  party_name: string | null;
  remarks: string | null;
  /** A salary payment listed among expenses: its amount is in the city's currency whoever paid. */
  salary: boolean;
}

/** What tells Expenses and Other Incomes apart (spec section 2): paths, texts and field names. */
export interface CashEntryKind<Row = never> {
  kind: 'Expense' | 'Income';
  path: 'expenses' | 'incomes';
  title: string;
  fetchFallback: string;
  emptyText: string;
  /** 'Paid From' or 'Received By': the column and the field. */
  partyLabel: string;
  /** The request's field names: expense_date, paid_from_entity_type, paid_from_entity_id. */
  fields: { date: string; type: string; id: string };
  fromRow(row: Row): CashEntry;
}

export interface CashEntryParams {
  page: number;
  limit: number;
  city_id: string;
  /** 'YYYY-MM-DD' or '' */
  startDate: string;
  endDate: string;
  category: string;
}

/** GET /transactions/{expenses|incomes}: one page of one city's entries; dates as ISO timestamps. */
export const cashEntriesQuery = (kind: CashEntryKind, params: CashEntryParams) =>
  queryOptions({
    queryKey: ['transactions', kind.path, params],
    queryFn: async ({ signal }): Promise<Page<CashEntry>> => {
      const p = await api.get<Page<never>>(
        `/transactions/${kind.path}`,
        {
          ...params,
          startDate: params.startDate ? isoDay(params.startDate) : '',
          endDate: params.endDate ? isoDay(params.endDate) : '',
        },
        signal,
      );
      return { totalItems: p.totalItems, data: p.data.map((row) => kind.fromRow(row)) };
    },
    placeholderData: keepPreviousData,
    // A list belongs to a city: nothing is asked until the tabs have chosen one.
    enabled: !!params.city_id,
  });

/** The currency an entry's amount is in: a godown's cash is INR, a collector's its city's. */
export const entryCurrency = (entry: Pick<CashEntry, 'party_type' | 'salary'>, cityCurrency: string) =>
  entry.party_type === 'Godown' && !entry.salary ? 'INR' : cityCurrency;

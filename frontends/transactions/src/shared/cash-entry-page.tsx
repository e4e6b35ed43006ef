import {
  type Column,
  DataTable,
  DEFAULT_PAGE_SIZES,
  ErrorAlert,
  errorText,
  listPaging,
  Page,
  RoleGate,
  useListState,
} from '@bahi/ui';
import {
  Amount,
  type City,
  CityTabsFromQuery,
  DateFilter,
  FilterBar,
  SearchInput,
  showDay,
  useCities,
  useQuery,
} from '@bahi/ui/screen';
import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { type ReactNode, Suspense, useState } from 'react';
import { type CashEntry, type CashEntryKind, cashEntriesQuery, entryCurrency } from './cash-entries.ts';

const FILTERS = ['startDate', 'endDate', 'category'] as const;
/** Who may record an expense or an income (spec section 6). */
export const WRITERS = ['Admin', 'Manager'] as const;

/**
 * Expenses and Other Incomes (spec section 2): a tab per city (the first by default, the tab in
 * the URL), Start Date, End Date and Category (500 ms) filters, the paged list, and New for
 * Admin and Manager, recording in the tab's city.
 */
export function CashEntryPage<Row>(props: {
  kind: CashEntryKind<Row>;
  /** The New dialog (loaded lazily by the feature), for the tab's city. */
  dialog(city: City, close: () => void): ReactNode;
}) {
  const { kind } = props;
  const list = useListState({ pageSize: DEFAULT_PAGE_SIZES[0], filters: FILTERS });
  const cities = useCities();
  const cityId = list.tab ?? '';
  const city = cities.data?.find((c) => c.id === cityId);
  const query = useQuery(
    cashEntriesQuery(kind, {
      page: list.page,
      limit: list.pageSize,
      city_id: cityId,
      startDate: list.filters.startDate,
      endDate: list.filters.endDate,
      category: list.filters.category,
    }),
  );
  const [creating, setCreating] = useState(false);
  const currency = city?.currency_name ?? '';
  const columns: Column<CashEntry>[] = [
    { key: 'date', header: 'Date', width: '130px', render: (e) => showDay(e.date) },
    { key: 'category', header: 'Category', render: (e) => e.category },
    {
      key: 'amount',
      header: 'Amount',
      card: 'figure',
      render: (e) => <Amount value={e.amount} currency={entryCurrency(e, currency)} />,
    },
    {
      key: 'party',
      header: kind.partyLabel,
      render: (e) => (e.party_name ? `${e.party_name} (${e.party_type})` : e.party_type),
    },
    { key: 'remarks', header: 'Remarks', render: (e) => e.remarks ?? '' },
  ];
  return (
    <Page
      title={kind.title}
      actions={
        <RoleGate roles={WRITERS}>
          <Button
            appearance="primary"
            icon={<AddRegular />}
            disabled={!city}
            onClick={() => setCreating(true)}
          >
            New {kind.kind}
          </Button>
        </RoleGate>
      }
    >
      <CityTabsFromQuery value={cityId} onChange={list.setTab} />
      <FilterBar>
        <DateFilter
          label="Start Date"
          value={list.filters.startDate}
          onChange={(v) => list.setFilter('startDate', v)}
        />
        <DateFilter
          label="End Date"
          value={list.filters.endDate}
          onChange={(v) => list.setFilter('endDate', v)}
        />
        <SearchInput
          label="Category"
          value={list.filters.category}
          onChange={(v) => list.setFilter('category', v)}
        />
      </FilterBar>
      <ErrorAlert text={query.isError ? errorText(query.error, kind.fetchFallback) : null} />
      <DataTable
        cards
        label={kind.title}
        columns={columns}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(e) => e.id}
        loading={query.isPending && (!!cityId || cities.isPending)}
        emptyText={kind.emptyText}
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), DEFAULT_PAGE_SIZES)}
      />
      <Suspense fallback={null}>
        {creating && city ? props.dialog(city, () => setCreating(false)) : null}
      </Suspense>
    </Page>
  );
}

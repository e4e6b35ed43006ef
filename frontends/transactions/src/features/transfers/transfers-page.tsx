import {
  type Column,
  DataTable,
  DEFAULT_PAGE_SIZES,
  ErrorAlert,
  errorText,
  formatRate,
  lazyNamed,
  listPaging,
  Page,
  useListState,
} from '@bahi/ui';
import { Amount, DateFilter, FilterBar, PartyFilter, showDay, useQuery } from '@bahi/ui/screen';
import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { type Transfer, transfersQuery } from './api.ts';

// Loaded with the dialog's first opening (the form and its schema do not weigh on the list).
const TransferDialog = lazyNamed(() => import('./transfer-dialog.tsx'), 'TransferDialog');

const FILTERS = ['from_collector_id', 'to_collector_id', 'startDate', 'endDate'] as const;

const who = (c: Transfer['fromCollector']) => (c ? `${c.name}${c.city.name ? ` (${c.city.name})` : ''}` : '');

const COLUMNS: Column<Transfer>[] = [
  { key: 'date', header: 'Date', width: '120px', render: (t) => showDay(t.transfer_date) },
  { key: 'from', header: 'From', render: (t) => who(t.fromCollector) },
  { key: 'to', header: 'To', render: (t) => who(t.toCollector) },
  {
    key: 'sent',
    card: 'figure',
    header: 'Amount Sent',
    render: (t) => <Amount value={t.sent_amount} currency={t.fromCollector?.city.currency_name ?? ''} />,
  },
  {
    key: 'charge',
    card: 'figure',
    header: 'Charge',
    render: (t) => <Amount value={t.transfer_charge} currency={t.fromCollector?.city.currency_name ?? ''} />,
  },
  {
    key: 'rate',
    card: 'figure',
    header: 'Rate',
    render: (t) => `${t.operation === '/' ? '÷' : '×'} ${formatRate(t.rate)}`,
  },
  {
    key: 'received',
    card: 'figure',
    header: 'Amount Received',
    render: (t) => <Amount value={t.amount} currency={t.toCollector?.city.currency_name ?? ''} />,
  },
  { key: 'remarks', header: 'Remarks', render: (t) => t.remarks ?? '' },
];

/**
 * Collector Transfers (spec section 2): From and To Collector (any city), From and To Date, the
 * paged list with each amount in its collector's currency, and New Transfer (anyone, section 6).
 */
export function TransfersPage() {
  const list = useListState({ pageSize: DEFAULT_PAGE_SIZES[0], filters: FILTERS });
  const query = useQuery(
    transfersQuery({
      page: list.page,
      limit: list.pageSize,
      from_collector_id: list.filters.from_collector_id,
      to_collector_id: list.filters.to_collector_id,
      startDate: list.filters.startDate,
      endDate: list.filters.endDate,
    }),
  );
  const [creating, setCreating] = useState(false);
  return (
    <Page
      title="Collector Transfers"
      actions={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setCreating(true)}>
          New Transfer
        </Button>
      }
    >
      <FilterBar>
        <PartyFilter
          kind="Collector"
          label="From Collector"
          value={list.filters.from_collector_id}
          onChange={(v) => list.setFilter('from_collector_id', v)}
        />
        <PartyFilter
          kind="Collector"
          label="To Collector"
          value={list.filters.to_collector_id}
          onChange={(v) => list.setFilter('to_collector_id', v)}
        />
        <DateFilter
          label="From Date"
          value={list.filters.startDate}
          onChange={(v) => list.setFilter('startDate', v)}
        />
        <DateFilter
          label="To Date"
          value={list.filters.endDate}
          onChange={(v) => list.setFilter('endDate', v)}
        />
      </FilterBar>
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch transfers.') : null} />
      <DataTable
        cards
        label="Collector Transfers"
        columns={COLUMNS}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(t) => t.id}
        loading={query.isPending}
        emptyText="No transfers found."
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), DEFAULT_PAGE_SIZES)}
      />
      <Suspense fallback={null}>
        {creating ? <TransferDialog onClose={() => setCreating(false)} /> : null}
      </Suspense>
    </Page>
  );
}

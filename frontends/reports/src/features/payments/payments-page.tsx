import { type Column, DataTable, ErrorAlert, errorText, listPaging, Page, useListState } from '@bahi/ui';
import {
  Amount,
  CityTabsFromQuery,
  DateFilter,
  FilterBar,
  showDay,
  useCities,
  useQuery,
} from '@bahi/ui/screen';
import { Field, Select } from '@fluentui/react-components';
import { DownloadButtons } from '../../shared/report-files.tsx';
import { type PaymentRow, paymentFilters, paymentsQuery } from './api.ts';

/** Spec section 9: the payments report offers 15, 25, 50, 100 a page, 15 by default. */
export const PAGE_SIZES = [15, 25, 50, 100] as const;
const FILTERS = ['related_entity_type', 'startDate', 'endDate'] as const;
const ENTITY_TYPES = [
  { value: '', label: 'All' },
  { value: 'Funder', label: 'Funder' },
  { value: 'Agent', label: 'Agent' },
] as const;

const columns = (cityCurrency: string): Column<PaymentRow>[] => [
  { key: 'date', header: 'Date', width: '120px', render: (p) => showDay(p.payment_date) },
  { key: 'type', header: 'Type', render: (p) => p.type },
  { key: 'entity', header: 'Entity', render: (p) => p.relatedEntityName ?? '' },
  { key: 'handler', header: 'Handler', render: (p) => p.handlerEntityName ?? '' },
  {
    key: 'amount',
    header: 'Amount',
    card: 'figure',
    // The server names the currency (INR in the INR mode, else the party's city's); the tab's
    // city's is the same, and stands in when the party is not found.
    render: (p) => <Amount value={p.amount} currency={p.currency ?? cityCurrency} />,
  },
];

/**
 * Payments Report (spec section 2): a tab per city (the first by default, the tab in the URL),
 * Entity Type (All, Funder, Agent), Start and End Date; Date, Type ('Payment To' a funder,
 * 'Payment From' an agent), Entity, Handler and Amount in the currency it was paid in; PDF and
 * Excel with the same filters.
 */
export function PaymentsPage() {
  const list = useListState({ pageSize: PAGE_SIZES[0], filters: FILTERS });
  const cities = useCities();
  const cityId = list.tab ?? '';
  const city = cities.data?.find((c) => c.id === cityId);
  const filters = {
    city_id: cityId,
    related_entity_type: list.filters.related_entity_type,
    startDate: list.filters.startDate,
    endDate: list.filters.endDate,
  };
  const query = useQuery(paymentsQuery({ page: list.page, limit: list.pageSize, ...filters }));
  return (
    <Page
      title="Payments Report"
      actions={
        <DownloadButtons
          path="/reports/payments/download"
          params={paymentFilters(filters)}
          fileName="payments_report"
          disabled={!cityId}
        />
      }
    >
      <CityTabsFromQuery value={cityId} onChange={list.setTab} />
      <FilterBar>
        <Field label="Entity Type">
          <Select
            value={list.filters.related_entity_type}
            onChange={(_, d) => list.setFilter('related_entity_type', d.value)}
          >
            {ENTITY_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </Select>
        </Field>
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
      </FilterBar>
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch payments.') : null} />
      <DataTable
        label="Payments"
        columns={columns(city?.currency_name ?? '')}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(p) => p.id}
        loading={query.isPending && (!!cityId || cities.isPending)}
        emptyText="No payments found for the selected filters."
        cards
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), PAGE_SIZES)}
      />
    </Page>
  );
}

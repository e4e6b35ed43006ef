import {
  type Column,
  DataTable,
  ErrorAlert,
  errorText,
  listPaging,
  Page,
  useListState,
  useSearchParams,
} from '@bahi/ui';
import {
  Amount,
  CityTabsFromQuery,
  FilterBar,
  PartyFilter,
  showDay,
  useCities,
  useQuery,
} from '@bahi/ui/screen';
import { Field, Select } from '@fluentui/react-components';
import { useCallback, useMemo } from 'react';
import { DownloadButtons } from '../../shared/report-files.tsx';
import { MONTHS, type SalaryRow, salaryFor, salaryReportQuery, salaryYears } from './api.ts';

/** Spec section 9: the salary report offers 15, 25, 50, 100 a page, 15 by default. */
export const PAGE_SIZES = [15, 25, 50, 100] as const;
const FILTERS = ['collector_id', 'month', 'year'] as const;

const columns = (currency: string): Column<SalaryRow>[] => [
  { key: 'paid', header: 'Paid On', width: '120px', render: (r) => showDay(r.payment_date) },
  { key: 'collector', header: 'Collector (Payee)', render: (r) => r.collectorName ?? '' },
  { key: 'for', header: 'Salary For', render: salaryFor },
  // A salary is in the collector's city currency, whoever paid it (a godown pays its INR value).
  {
    key: 'amount',
    header: 'Amount',
    card: 'figure',
    render: (r) => <Amount value={r.amount} currency={currency} />,
  },
  { key: 'from', header: 'Paid From', render: (r) => r.payerName ?? '' },
  { key: 'remarks', header: 'Remarks', render: (r) => r.remarks ?? r.expense?.remarks ?? '' },
];

/**
 * Salary Payments Report (spec section 2): a tab per city (the first by default), Collector
 * (that city's only, cleared when the city changes), Month and Year ('All' or one); Paid On,
 * Collector (Payee), Salary For, Amount, Paid From, Remarks; PDF and Excel with the same filters.
 */
export function SalaryReportPage() {
  const list = useListState({ pageSize: PAGE_SIZES[0], filters: FILTERS });
  const [, setParams] = useSearchParams();
  const cities = useCities();
  const cityId = list.tab ?? '';
  const city = cities.data?.find((c) => c.id === cityId);
  const years = useMemo(() => salaryYears(), []);
  // Another city's tab: the collector chosen belongs to the last city, so it goes (one URL change).
  const changeCity = useCallback(
    (id: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          const was = next.get('tab') ?? '';
          if (id) next.set('tab', id);
          else next.delete('tab');
          if (was && was !== id) next.delete('collector_id');
          next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const filters = {
    city_id: cityId,
    collector_id: list.filters.collector_id,
    month: list.filters.month,
    year: list.filters.year,
  };
  const query = useQuery(salaryReportQuery({ page: list.page, limit: list.pageSize, ...filters }));
  return (
    <Page
      title="Salary Payments Report"
      actions={
        <DownloadButtons
          path="/reports/salary-report/download"
          params={filters}
          fileName="salary_report"
          disabled={!cityId}
        />
      }
    >
      <CityTabsFromQuery value={cityId} onChange={changeCity} />
      <FilterBar>
        {/* Only the tab's city's collectors: offered once the tab has chosen a city. */}
        {cityId ? (
          <PartyFilter
            key={cityId}
            kind="Collector"
            label="Collector"
            cityId={cityId}
            value={list.filters.collector_id}
            onChange={(v) => list.setFilter('collector_id', v)}
          />
        ) : null}
        <Field label="Month">
          <Select value={list.filters.month} onChange={(_, d) => list.setFilter('month', d.value)}>
            <option value="">All</option>
            {MONTHS.map((name, i) => (
              <option key={name} value={String(i + 1)}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Year">
          <Select value={list.filters.year} onChange={(_, d) => list.setFilter('year', d.value)}>
            <option value="">All</option>
            {years.map((y) => (
              <option key={y} value={String(y)}>
                {y}
              </option>
            ))}
          </Select>
        </Field>
      </FilterBar>
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch salary report.') : null} />
      <DataTable
        label="Salary payments"
        columns={columns(city?.currency_name ?? '')}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(r) => r.id}
        loading={query.isPending && (!!cityId || cities.isPending)}
        emptyText="No salary payments found for the selected filters."
        cards
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), PAGE_SIZES)}
      />
    </Page>
  );
}

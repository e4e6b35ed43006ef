import { ErrorAlert, errorText, formatAmount, Page } from '@bahi/ui';
import { compareDecimal, FilterBar, today, useQuery } from '@bahi/ui/screen';
import { Button, Field, Input, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { useId, useMemo } from 'react';
import { useAppliedFilters } from '../../shared/applied-filters.ts';
import { markRecords } from '../../shared/compare.ts';
import { dateColumn } from '../../shared/journal-columns.tsx';
import { RecordDrilldown, RecordLink, useOpenRecord } from '../../shared/record-drilldown.tsx';
import { DownloadButtons } from '../../shared/report-files.tsx';
import { DateRangeFilters, ReportCityTabs, useReportCity } from '../../shared/report-filters.tsx';
import { TimeTravelBar, useTimeTravel } from '../../shared/time-travel.tsx';
import { totals } from '../../shared/totals.ts';
import { changeColumn, type VColumn, VirtualTable } from '../../shared/virtual-table.tsx';
import { type DaywiseRow, daywiseQuery } from './api.ts';

const useStyles = makeStyles({
  positive: { color: tokens.colorPaletteGreenForeground1 },
  negative: { color: tokens.colorPaletteRedForeground1 },
  message: { padding: tokens.spacingVerticalL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  category: { flex: '1 1 160px', maxWidth: '260px' },
});

/** A row's identity across two reads (Compare): its record; the server sends one with every row. */
const keyOf = (r: DaywiseRow) =>
  r.record ? `${r.record.type}.${r.record.id}` : `${r.date}|${r.type}|${r.category}|${r.amount}`;
const rowKey = (r: DaywiseRow, i: number) => (r.record ? keyOf(r) : `#${i}`);

/**
 * Day-wise Report (spec section 2): All Cities and a tab per city, Start Date, End Date and
 * Category applied together, income and expense by day in INR with Total and Net Total.
 */
export function DaywisePage() {
  const styles = useStyles();
  const categoryId = useId();
  // The first city until another is chosen, so the report opens on it (the spec's first reading
  // of its defaults); All Cities is 'all' in the URL.
  const city = useReportCity({ includeAll: true });
  const { cities, cityId } = city;
  const day = today();
  const filters = useAppliedFilters({ startDate: day, endDate: day, category: '' });
  const tt = useTimeTravel();
  const f = filters.applied;
  const params = {
    startDate: f.startDate,
    endDate: f.endDate,
    city_id: cityId,
    ...(f.category ? { category: f.category } : {}),
    ...tt.at,
  };
  const query = useQuery(daywiseQuery(params));
  const baseline = useQuery({
    ...daywiseQuery({ ...params, knownAt: tt.baseline?.knownAt ?? '' }),
    enabled: !!(tt.baseline && params.startDate && params.endDate && cityId),
  });
  const openRecord = useOpenRecord();
  const rows = query.isError || !query.isEnabled ? [] : (query.data ?? []);
  const then = tt.baseline && !baseline.isError ? baseline.data : undefined;
  const compared = useMemo(
    () =>
      then
        ? markRecords(rows, then, keyOf, (r) => [r.date, r.category, r.remarks, r.type, r.amount])
        : undefined,
    [rows, then],
  );
  const sum = totals(
    rows,
    (r) => (r.type === 'Income' ? r.amount : '0'),
    (r) => (r.type === 'Expense' ? r.amount : '0'),
  );
  // Amounts are INR at each record's rate. On a city tab whose currency is not INR, a record
  // entered in that currency (a collector's) also shows what was entered; one entered in INR (a
  // godown's) has the same figure twice and shows it once.
  const local = cities.data?.find((c) => c.id === cityId)?.currency_name;
  const entered = local && local !== 'INR' ? local : undefined;
  const columns: VColumn<DaywiseRow>[] = [
    dateColumn(),
    {
      key: 'category',
      header: 'Category',
      render: (r) => <RecordLink text={r.category} date={r.date} record={r.record} onOpen={openRecord} />,
    },
    { key: 'remarks', header: 'Remarks', render: (r) => r.remarks ?? '' },
    {
      key: 'income',
      header: 'Income (INR)',
      numeric: true,
      render: (r) => (r.type === 'Income' ? formatAmount(r.amount) : ''),
    },
    {
      key: 'expense',
      header: 'Expense (INR)',
      numeric: true,
      render: (r) => (r.type === 'Expense' ? formatAmount(r.amount) : ''),
    },
  ];
  if (entered)
    columns.push({
      key: 'entered',
      header: `Entered (${entered})`,
      numeric: true,
      render: (r) => (compareDecimal(r.amount_entered, r.amount) === 0 ? '' : formatAmount(r.amount_entered)),
    });
  if (compared) columns.push(changeColumn(compared, keyOf));
  const netClass = sum.net.startsWith('-') ? styles.negative : styles.positive;
  const ready = !!(f.startDate && f.endDate && cityId);
  return (
    <Page
      title="Day-wise Report"
      actions={
        <DownloadButtons
          compact
          path="/reports/daywise-report/download"
          params={params}
          fileName={`daywise_report_${f.startDate}_to_${f.endDate}`}
          disabled={!ready}
        />
      }
    >
      <ReportCityTabs city={city} />
      <FilterBar>
        <DateRangeFilters filters={filters} />
        <Field label={{ children: 'Category', htmlFor: categoryId }} className={styles.category}>
          <Input
            id={categoryId}
            value={filters.draft.category}
            onChange={(_, d) => filters.set('category', d.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') filters.apply();
            }}
          />
        </Field>
        <Button appearance="primary" onClick={() => filters.apply()}>
          Apply Date/Category
        </Button>
      </FilterBar>
      <TimeTravelBar tt={tt} />
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch day-wise report.') : null} />
      {!cityId ? (
        <Text className={styles.message} block>
          Please select a city to view the report.
        </Text>
      ) : (
        <VirtualTable
          label="Day-wise report"
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          loading={ready && query.isPending}
          emptyText="No transactions found for the selected filters."
          marks={compared?.marks}
          gone={compared?.gone}
          footer={[
            {
              label: 'Total',
              cells: { income: formatAmount(sum.in), expense: formatAmount(sum.out) },
            },
            {
              label: 'Net Total',
              labels: { income: 'Net (INR)' },
              cells: {
                income: (
                  <span className={mergeClasses(netClass)} data-testid="net-total">
                    {formatAmount(sum.net)}
                  </span>
                ),
              },
            },
          ]}
        />
      )}
      <RecordDrilldown />
    </Page>
  );
}

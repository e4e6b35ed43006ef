import { ErrorAlert, errorText, formatAmount, Page } from '@bahi/ui';
import { FilterBar, today, useQuery } from '@bahi/ui/screen';
import { Button, Field, makeStyles, Select, Text, tokens } from '@fluentui/react-components';
import { useCallback, useId, useMemo } from 'react';
import { useAppliedFilters } from '../../shared/applied-filters.ts';
import { markJournalLines } from '../../shared/compare.ts';
import { CorrectionsSwitch, isCorrected, useCorrections } from '../../shared/corrections.tsx';
import { dateColumn, particularsColumn } from '../../shared/journal-columns.tsx';
import { RecordDrilldown, useOpenRecord } from '../../shared/record-drilldown.tsx';
import { DownloadButtons } from '../../shared/report-files.tsx';
import { DateRangeFilters, ReportCityTabs, useReportCity } from '../../shared/report-filters.tsx';
import { TimeTravelBar, useTimeTravel } from '../../shared/time-travel.tsx';
import { totals } from '../../shared/totals.ts';
import { changeColumn, type VColumn, VirtualTable } from '../../shared/virtual-table.tsx';
import { allGodownsQuery, type CashbookRow, cashbookQuery, cityCollectorsQuery } from './api.ts';

const useStyles = makeStyles({
  positive: { color: tokens.colorPaletteGreenForeground1 },
  negative: { color: tokens.colorPaletteRedForeground1 },
  message: { padding: tokens.spacingVerticalL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  picker: { flex: '1 1 200px', maxWidth: '320px' },
});

/** Zero amounts show '-' (spec section 2). */
const cash = (v: string) => (/^-?0*(\.0*)?$/.test(v) ? '-' : formatAmount(v));

/**
 * Cashbook Report (spec section 2): city tabs, Start and End Date (today by default), a
 * collector of the city or any godown, applied together; Cash In and Cash Out with Total and
 * Net Total. The time-travel bar and Compare as on the ledger.
 */
export function CashbookPage() {
  const styles = useStyles();
  const pickerId = useId();
  const day = today();
  const filters = useAppliedFilters({ startDate: day, endDate: day, entity: '' });
  const clearEntity = useCallback(() => filters.set('entity', ''), [filters.set]);
  const city = useReportCity({ clears: 'entity', onChange: clearEntity });
  const { cities, cityId } = city;
  const collectors = useQuery(cityCollectorsQuery(cityId));
  const godowns = useQuery(allGodownsQuery());
  const tt = useTimeTravel();
  const corrections = useCorrections();
  const f = filters.applied;
  const [entityType = '', entityId = ''] = f.entity.split('.');
  const params = {
    startDate: f.startDate,
    endDate: f.endDate,
    city_id: cityId,
    entity_type: entityType,
    entity_id: entityId,
    ...corrections.query,
    ...tt.at,
  };
  const query = useQuery(cashbookQuery(params));
  const baseline = useQuery({
    ...cashbookQuery({ ...params, knownAt: tt.baseline?.knownAt ?? '' }),
    enabled: !!(tt.baseline && f.startDate && f.endDate && entityId),
  });
  const openRecord = useOpenRecord();
  const rows = query.isError || !query.isEnabled ? [] : (query.data ?? []);
  const then = tt.baseline && !baseline.isError ? baseline.data : undefined;
  const compared = useMemo(() => (then ? markJournalLines(rows, then) : undefined), [rows, then]);
  const sum = totals(
    rows,
    (r) => r.cash_in,
    (r) => r.cash_out,
  );
  // The cash account's currency: each line says it; with none yet, a godown's is INR, a collector's its city's.
  const currency =
    rows[0]?.currency ??
    (entityType === 'Godown' ? 'INR' : (cities.data?.find((c) => c.id === cityId)?.currency_name ?? ''));
  const inCurrency = (header: string) => (currency ? `${header} (${currency})` : header);
  const columns: VColumn<CashbookRow>[] = [
    dateColumn(),
    particularsColumn(openRecord),
    { key: 'in', header: inCurrency('Cash In'), numeric: true, render: (r) => cash(r.cash_in) },
    { key: 'out', header: inCurrency('Cash Out'), numeric: true, render: (r) => cash(r.cash_out) },
  ];
  if (compared) columns.push(changeColumn(compared, (r) => r.key));
  const pickerError = collectors.isError || godowns.isError;
  return (
    <Page
      title="Cashbook Report"
      actions={
        <DownloadButtons
          path="/reports/cashbook-report/download"
          params={params}
          fileName="cashbook_report"
          disabled={!(entityId && f.startDate && f.endDate)}
        />
      }
    >
      <ReportCityTabs city={city} />
      <FilterBar>
        <DateRangeFilters filters={filters} />
        <Field
          label={{ children: 'Collector or Godown', htmlFor: pickerId }}
          className={styles.picker}
          validationMessage={pickerError ? 'Failed to load accounts list.' : undefined}
        >
          <Select
            id={pickerId}
            value={filters.draft.entity}
            onChange={(_, d) => filters.set('entity', d.value)}
          >
            <option value="">Choose…</option>
            <optgroup label="Collectors">
              {(collectors.data?.data ?? []).map((c) => (
                <option key={c.id} value={`Collector.${c.id}`}>
                  {c.name}
                </option>
              ))}
            </optgroup>
            <optgroup label="Godowns">
              {(godowns.data?.data ?? []).map((g) => (
                <option key={g.id} value={`Godown.${g.id}`}>
                  {g.name}
                </option>
              ))}
            </optgroup>
          </Select>
        </Field>
        <Button appearance="primary" onClick={() => filters.apply()}>
          Apply
        </Button>
        <CorrectionsSwitch corrections={corrections} />
      </FilterBar>
      <TimeTravelBar tt={tt} />
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch cashbook report.') : null} />
      {!cityId ? (
        <Text className={styles.message} block>
          Please select a city to view the report.
        </Text>
      ) : !entityId ? (
        <Text className={styles.message} block>
          Choose a collector or a godown, then Apply.
        </Text>
      ) : (
        <VirtualTable
          label="Cashbook"
          columns={columns}
          rows={rows}
          rowKey={(r, i) => r.key ?? String(i)}
          loading={query.isPending}
          emptyText="No cash transactions found for the selected filters."
          marks={compared?.marks}
          gone={compared?.gone}
          dim={isCorrected}
          cardTitleLines={2}
          footer={[
            { label: 'Total', cells: { in: cash(sum.in), out: cash(sum.out) } },
            {
              label: 'Net Total',
              labels: { in: inCurrency('Net') },
              cells: {
                in: (
                  <span className={sum.net.startsWith('-') ? styles.negative : styles.positive}>
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

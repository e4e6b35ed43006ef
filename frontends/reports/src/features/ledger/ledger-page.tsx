import {
  ApiError,
  ErrorAlert,
  errorText,
  formatAmount,
  NotFoundPage,
  Page,
  RouterLink,
  useLocation,
  useParams,
} from '@bahi/ui';
import { FilterBar, useCities, useQuery } from '@bahi/ui/screen';
import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useMemo } from 'react';
import { useAppliedFilters } from '../../shared/applied-filters.ts';
import { markJournalLines } from '../../shared/compare.ts';
import { CorrectionsSwitch, isCorrected, useCorrections } from '../../shared/corrections.tsx';
import { dateColumn, particularsColumn } from '../../shared/journal-columns.tsx';
import { RecordDrilldown, useOpenRecord } from '../../shared/record-drilldown.tsx';
import { DownloadButtons, WhatsAppButton } from '../../shared/report-files.tsx';
import { DateRangeFilters } from '../../shared/report-filters.tsx';
import { SummaryCards } from '../../shared/summary-cards.tsx';
import { TimeTravelBar, useTimeTravel } from '../../shared/time-travel.tsx';
import { changeColumn, type VColumn, VirtualTable } from '../../shared/virtual-table.tsx';
import { isLedgerType, type Ledger, type LedgerLine, type LedgerType, ledgerQuery } from './api.ts';

const LIST: Record<LedgerType, { path: string; label: string }> = {
  Funder: { path: '/masters/funders', label: 'Funders' },
  Agent: { path: '/masters/agents', label: 'Agents' },
  Collector: { path: '/masters/collectors', label: 'Collectors' },
  Godown: { path: '/masters/godowns', label: 'Godowns' },
};

const useStyles = makeStyles({
  crumbs: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
});

/** A ledger with nothing in it: what was known of a party before it was recorded. */
function emptyLedger(now: Ledger): Ledger {
  return {
    ...now,
    openingBalance: '0.00',
    closingBalance: '0.00',
    totalDebit: '0.00',
    totalCredit: '0.00',
    transactions: [],
  };
}

/**
 * Ledger of a funder, agent, collector or godown (spec section 2): breadcrumb to its master
 * list, Start and End Date with Apply Filter, the four figures, and every line with its running
 * balance. The time-travel bar shows it as of a date, as known at a moment, or compared with a
 * moment; a line opens its record with the record's history.
 */
export function LedgerPage() {
  const { entityType, entityId = '' } = useParams();
  if (!isLedgerType(entityType) || !/^[0-9a-f-]{36}$/i.test(entityId)) return <NotFoundPage />;
  return <LedgerReport type={entityType} id={entityId} />;
}

function LedgerReport(props: { type: LedgerType; id: string }) {
  const styles = useStyles();
  const { type, id } = props;
  const filters = useAppliedFilters({ startDate: '', endDate: '' });
  const dates = filters.applied;
  const tt = useTimeTravel();
  const corrections = useCorrections();
  const params = useMemo(
    () => ({
      ...(dates.startDate ? { startDate: dates.startDate } : {}),
      ...(dates.endDate ? { endDate: dates.endDate } : {}),
      ...corrections.query,
      ...tt.at,
    }),
    [dates.startDate, dates.endDate, tt.at, corrections.query],
  );
  const query = useQuery(ledgerQuery(type, id, params));
  const baseline = useQuery({
    ...ledgerQuery(type, id, {
      ...(dates.startDate ? { startDate: dates.startDate } : {}),
      ...(dates.endDate ? { endDate: dates.endDate } : {}),
      ...corrections.query,
      ...(tt.baseline ?? { knownAt: '' }),
    }),
    enabled: !!tt.baseline,
  });
  const cities = useCities();
  const openRecord = useOpenRecord();
  const ledger = query.isError ? undefined : query.data;
  // Not yet recorded at A (404): nothing was known then, so everything is new since.
  const unknownThen = baseline.isError && baseline.error instanceof ApiError && baseline.error.status === 404;
  const then = tt.baseline ? (unknownThen && ledger ? emptyLedger(ledger) : baseline.data) : undefined;
  const city = cities.data?.find((c) => c.id === ledger?.entity.city_id);
  // Every amount of a ledger is in its account's currency (the API says which).
  const currency = ledger?.entity.currency ?? (type === 'Godown' ? 'INR' : (city?.currency_name ?? ''));
  const inCurrency = (header: string) => (currency ? `${header} (${currency})` : header);
  const lines = ledger?.transactions ?? [];
  const compared = useMemo(
    () => (then ? markJournalLines(lines, then.transactions) : undefined),
    [lines, then],
  );
  const columns: VColumn<LedgerLine>[] = [
    dateColumn(),
    particularsColumn(openRecord),
    // On a phone's card the Debit and Credit figures say it.
    { key: 'type', header: 'Type', card: 'hide', render: (l) => l.type },
    { key: 'debit', header: inCurrency('Debit'), numeric: true, render: (l) => formatAmount(l.debit) },
    { key: 'credit', header: inCurrency('Credit'), numeric: true, render: (l) => formatAmount(l.credit) },
    {
      key: 'balance',
      header: inCurrency('Balance'),
      numeric: true,
      render: (l) => formatAmount(l.balance),
    },
  ];
  if (compared) columns.push(changeColumn(compared, (l) => l.key));
  const list = LIST[type];
  // Until the ledger arrives, the name the link to it showed (a party's list, Balances): the
  // heading is there as soon as the screen is.
  const linked = (useLocation().state as { name?: unknown } | null)?.name;
  const name = ledger?.entity.name ?? (typeof linked === 'string' ? linked : '');
  return (
    <Page
      title={name ? `Ledger: ${name}` : 'Ledger'}
      actions={
        <DownloadButtons
          path={`/reports/ledger/${type}/${id}/download`}
          params={params}
          fileName={`ledger_${type.toLowerCase()}`}
          disabled={!ledger}
        >
          <WhatsAppButton reportName="ledger" data={{ type, id, ...params }} disabled={!ledger} />
        </DownloadButtons>
      }
    >
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <RouterLink to={list.path}>{list.label}</RouterLink>
        <Text aria-hidden>/</Text>
        <Text aria-current="page">{name || type}</Text>
      </nav>
      <FilterBar>
        <DateRangeFilters filters={filters} />
        <Button appearance="primary" onClick={() => filters.apply()}>
          Apply Filter
        </Button>
        <CorrectionsSwitch corrections={corrections} />
      </FilterBar>
      <TimeTravelBar tt={tt} />
      <ErrorAlert
        text={query.isError ? errorText(query.error, `Failed to fetch ledger for ${type}.`) : null}
      />
      <ErrorAlert
        text={
          tt.baseline && baseline.isError && !unknownThen
            ? errorText(baseline.error, `Failed to fetch ledger for ${type}.`)
            : null
        }
      />
      {unknownThen && name ? (
        <Text>{name} was not yet recorded at the moment compared with: every line is new since.</Text>
      ) : null}
      {ledger ? (
        <SummaryCards
          label="Ledger figures"
          currency={currency}
          cards={[
            { label: 'Opening Balance', value: ledger.openingBalance, before: then?.openingBalance },
            { label: 'Total Debit', value: ledger.totalDebit, before: then?.totalDebit },
            { label: 'Total Credit', value: ledger.totalCredit, before: then?.totalCredit },
            { label: 'Closing Balance', value: ledger.closingBalance, before: then?.closingBalance },
          ]}
        />
      ) : null}
      <VirtualTable
        label={`Ledger of ${name || type}`}
        columns={columns}
        rows={lines}
        rowKey={(l, i) => l.key ?? String(i)}
        loading={query.isPending}
        emptyText="No data found."
        marks={compared?.marks}
        gone={compared?.gone}
        dim={isCorrected}
        cardTitleLines={2}
      />
      <RecordDrilldown />
    </Page>
  );
}

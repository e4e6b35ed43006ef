import {
  type Column,
  DataTable,
  ErrorAlert,
  errorText,
  listPaging,
  Page,
  RouterLink,
  useListState,
} from '@bahi/ui';
import {
  Amount,
  CityFilter,
  currentBalance,
  FilterBar,
  type Party,
  type PartyKind,
  partyCurrency,
  SearchInput,
  useQuery,
} from '@bahi/ui/screen';
import { makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import { ClosedNote } from '../../shared/closed-note.tsx';
import { DownloadButtons } from '../../shared/report-files.tsx';
import { signedAmount } from '../../shared/summary-cards.tsx';
import { TimeTravelBar, useTimeTravel } from '../../shared/time-travel.tsx';
import { BALANCE_TABS, type BalanceTab, balancesQuery } from './api.ts';

/** Spec section 9: the Balances report offers 10, 25, 50, 100 a page, 10 by default. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
const FILTERS = ['search', 'city_id'] as const;

const useStyles = makeStyles({
  caption: { color: tokens.colorNeutralForeground3 },
  tabs: { overflowX: 'auto', flexWrap: 'nowrap' },
});

const columnsFor = (kind: PartyKind, before?: Map<string, Party>): Column<Party>[] => [
  {
    key: 'name',
    header: 'Name',
    render: (p) => (
      <RouterLink to={`/reports/ledger/${kind}/${p.id}`} state={{ name: p.name }}>
        {p.name}
      </RouterLink>
    ),
  },
  { key: 'city', header: 'City', render: (p) => p.city?.name ?? '' },
  {
    key: 'opening',
    header: 'Opening Balance',
    card: 'figure',
    render: (p) => <Amount value={p.opening_balance} currency={partyCurrency(p, kind)} />,
  },
  {
    // opening_balance + balance.amount, added as decimal text (never a JS number).
    key: 'current',
    header: 'Current Balance',
    card: 'figure',
    render: (p) => <Amount value={currentBalance(p)} currency={partyCurrency(p, kind)} />,
  },
  ...(before
    ? [
        {
          // Compare: each balance's difference from the moment compared with.
          key: 'change',
          header: 'Change since',
          card: 'figure' as const,
          render: (p: Party) => {
            const then = before.get(p.id);
            if (!then) return 'New since';
            return signedAmount(currentBalance(p), currentBalance(then)) ?? 'No change';
          },
        },
      ]
    : []),
];

/**
 * Balances Report (spec section 2): Funders, Agents, Collectors and Godowns as tabs (the tab in
 * the URL), a name search (500 ms) and a city filter (not on Godowns), each name linking to its
 * ledger; PDF and Excel of all four with the same filters. A link carrying `asOf` or `knownAt`
 * (time travel) shows and downloads the books as they stood then.
 */
export function BalancesPage() {
  const styles = useStyles();
  const list = useListState({ pageSize: PAGE_SIZES[0], filters: FILTERS });
  const tab = BALANCE_TABS.find((t) => t.value === list.tab) ?? BALANCE_TABS[0]!;
  const { search, city_id } = list.filters;
  const tt = useTimeTravel();
  const asOf = tt.asOf;
  const knownAt = tt.knownAt;
  const query = useQuery(
    balancesQuery({ page: list.page, limit: list.pageSize, search, city_id, asOf, knownAt }),
  );
  const baseline = useQuery({
    ...balancesQuery({ page: list.page, limit: list.pageSize, search, city_id, asOf, knownAt: tt.compare }),
    enabled: !!tt.compare,
  });
  const rows = query.isError ? undefined : query.data?.[tab.value];
  const before =
    tt.compare && baseline.data && !baseline.isError
      ? new Map(baseline.data[tab.value].data.map((p) => [p.id, p]))
      : undefined;
  return (
    <Page
      title="Balances Report"
      actions={
        <DownloadButtons
          path="/reports/balances/download"
          params={{ search, city_id, asOf, knownAt }}
          fileName="balances_report"
        />
      }
    >
      <TabList
        className={styles.tabs}
        aria-label="Balances"
        selectedValue={tab.value}
        onTabSelect={(_, d) => list.setTab(d.value === BALANCE_TABS[0]!.value ? undefined : String(d.value))}
      >
        {BALANCE_TABS.map((t) => (
          <Tab key={t.value} value={t.value}>
            {t.label}
          </Tab>
        ))}
      </TabList>
      <FilterBar>
        <SearchInput label="Search by name" value={search} onChange={(v) => list.setFilter('search', v)} />
        {tab.value === 'godowns' ? null : (
          <CityFilter value={city_id} onChange={(v) => list.setFilter('city_id', v)} />
        )}
      </FilterBar>
      <TimeTravelBar tt={tt} />
      <ClosedNote tt={tt} />
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch balances report.') : null} />
      <ErrorAlert
        text={
          tt.compare && baseline.isError
            ? errorText(baseline.error, 'Failed to fetch balances report.')
            : null
        }
      />
      <DataTable
        label={`${tab.label} balances`}
        columns={columnsFor(tab.kind, before)}
        rows={rows?.data ?? []}
        rowKey={(p) => p.id}
        loading={query.isPending}
        emptyText={emptyText(tab.value)}
        cards
        paging={listPaging(list, rows?.totalItems ?? 0, PAGE_SIZES)}
      />
    </Page>
  );
}

/** 'No funders found for the selected filters.' (spec section 2: 'No <type>s found ...'). */
export const emptyText = (tab: BalanceTab) => `No ${tab} found for the selected filters.`;

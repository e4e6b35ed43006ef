import { type Column, DataTable, ErrorAlert, errorText, Page, RouterLink, useListState } from '@bahi/ui';
import {
  Amount,
  CityFilter,
  currentBalance,
  FilterBar,
  type Party,
  type PartyKind,
  partyCurrency,
  SearchInput,
  showDay,
  useQuery,
} from '@bahi/ui/screen';
import { makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { DownloadButtons } from '../../shared/report-files.tsx';
import { BALANCE_TABS, type BalanceTab, balancesQuery } from './api.ts';

/** Spec section 9: the Balances report offers 10, 25, 50, 100 a page, 10 by default. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
const FILTERS = ['search', 'city_id', 'asOf', 'knownAt'] as const;

const useStyles = makeStyles({
  caption: { color: tokens.colorNeutralForeground3 },
  tabs: { overflowX: 'auto', flexWrap: 'nowrap' },
});

const columnsFor = (kind: PartyKind): Column<Party>[] => [
  {
    key: 'name',
    header: 'Name',
    render: (p) => <RouterLink to={`/reports/ledger/${kind}/${p.id}`}>{p.name}</RouterLink>,
  },
  { key: 'city', header: 'City', render: (p) => p.city?.name ?? '' },
  {
    key: 'opening',
    header: 'Opening Balance',
    render: (p) => <Amount value={p.opening_balance} currency={partyCurrency(p, kind)} />,
  },
  {
    // opening_balance + balance.amount, added as decimal text (never a JS number).
    key: 'current',
    header: 'Current Balance',
    render: (p) => <Amount value={currentBalance(p)} currency={partyCurrency(p, kind)} />,
  },
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
  const { search, city_id, asOf, knownAt } = list.filters;
  const query = useQuery(
    balancesQuery({ page: list.page, limit: list.pageSize, search, city_id, asOf, knownAt }),
  );
  const rows = query.isError ? undefined : query.data?.[tab.value];
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
      {asOf || knownAt ? (
        <Text size={200} className={styles.caption}>
          {knownAt
            ? `Balances as recorded by ${new Date(knownAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}${asOf ? `, up to ${showDay(asOf)}` : ''}.`
            : `Balances as the books stood at the end of ${showDay(asOf)}.`}
        </Text>
      ) : null}
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch balances report.') : null} />
      <DataTable
        label={`${tab.label} balances`}
        columns={columnsFor(tab.kind)}
        rows={rows?.data ?? []}
        rowKey={(p) => p.id}
        loading={query.isPending}
        emptyText={emptyText(tab.value)}
        paging={{
          page: list.page,
          pageSize: list.pageSize,
          totalItems: rows?.totalItems ?? 0,
          pageSizes: PAGE_SIZES,
          onPage: list.setPage,
          onPageSize: list.setPageSize,
        }}
      />
    </Page>
  );
}

/** 'No funders found for the selected filters.' (spec section 2: 'No <type>s found ...'). */
export const emptyText = (tab: BalanceTab) => `No ${tab} found for the selected filters.`;

import { ErrorAlert, errorText, formatAmount, Page, Panel } from '@bahi/ui';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { type ActivityEntry, type DashboardSummary, fetchRecentActivity, fetchSummary } from './api.ts';
import { IncomeExpenseChart } from './income-expense-chart.tsx';
import { RecentActivity } from './recent-activity.tsx';

const CARDS: { key: keyof Omit<DashboardSummary, 'dailyIncomeExpense'>; title: string }[] = [
  { key: 'totalFunderBalance', title: 'Total Funders Balance' },
  { key: 'totalAgentBalance', title: 'Total Agents Receivable' },
  { key: 'totalCollectorBalance', title: 'Total Collector Cash' },
  { key: 'totalGodownBalance', title: 'Total Godown Cash' },
];

const useStyles = makeStyles({
  cards: {
    display: 'grid',
    // One card a row on a phone: a crore in 28 px type needs about 220 px.
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 220px), 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  value: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
    fontVariantNumeric: 'tabular-nums',
    // A figure never breaks inside the number; a very long one gets smaller type instead.
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    '@media (max-width: 480px)': { fontSize: tokens.fontSizeBase600, lineHeight: tokens.lineHeightBase600 },
  },
  lower: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)',
    alignItems: 'start',
    gap: tokens.spacingHorizontalL,
    '@media (max-width: 1100px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  caption: { color: tokens.colorNeutralForeground3 },
});

export function DashboardPage() {
  const styles = useStyles();
  const [summary, setSummary] = useState<DashboardSummary | null>(null);
  const [activity, setActivity] = useState<ActivityEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      Promise.all([fetchSummary(), fetchRecentActivity()]).then(
        ([s, a]) => {
          if (!live) return;
          setSummary(s);
          setActivity(a);
          setError(null);
        },
        (e) => live && setError(errorText(e, 'Failed to load dashboard data.')),
      );
    void load();
    // Figures follow what others record: refresh when the live stream says data changed.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(load, 1000);
    };
    window.addEventListener('bahi:data-changed', onChange);
    // The stream was down and may have missed changes: read everything again.
    window.addEventListener('bahi:resync', onChange);
    return () => {
      live = false;
      clearTimeout(timer);
      window.removeEventListener('bahi:data-changed', onChange);
      window.removeEventListener('bahi:resync', onChange);
    };
  }, []);
  return (
    <Page title="Dashboard">
      <ErrorAlert text={error} />
      <div className={styles.cards}>
        {CARDS.map((c) => (
          <Panel key={c.key} aria-label={c.title} title={c.title}>
            {summary ? (
              <Text className={styles.value}>{formatAmount(summary[c.key])}</Text>
            ) : (
              <Text className={styles.value} aria-label="Loading">
                …
              </Text>
            )}
            <Text size={200} className={styles.caption}>
              INR
            </Text>
          </Panel>
        ))}
      </div>
      <div className={styles.lower}>
        <Panel title="Income vs. Expense (Last 30 Days)">
          {summary ? <IncomeExpenseChart days={summary.dailyIncomeExpense} /> : null}
        </Panel>
        <Panel title="Recent Activity">{activity ? <RecentActivity entries={activity} /> : null}</Panel>
      </div>
    </Page>
  );
}

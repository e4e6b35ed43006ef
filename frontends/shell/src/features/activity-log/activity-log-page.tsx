import {
  type Column,
  DataTable,
  ErrorAlert,
  errorText,
  formatDateTime,
  listPaging,
  Page,
  useListState,
} from '@bahi/ui';
import { DateFilter, ScreenProviders, useQuery } from '@bahi/ui/screen';
import { Badge, Field, makeStyles, Select, Text, tokens } from '@fluentui/react-components';
import type { ActivityEntry } from '../../shared/activity.ts';
import { activityLogQuery, userChoicesQuery } from './api.ts';
import { booksChange } from './books-change.ts';

const PAGE_SIZES = [15, 25, 50, 100];
const ENTITY_TYPES = [
  'City',
  'Product',
  'Funder',
  'Agent',
  'Godown',
  'Collector',
  'User',
  'Purchase',
  'Sale',
  'Payment',
  'Transfer',
  'Expense',
  'Income',
  'PurchaseReturn',
  'SaleReturn',
  'ClearingPayout',
  'SalaryPayment',
  'Books',
  'Import',
];
const FILTERS = ['userId', 'actionType', 'modelName', 'startDate', 'endDate'] as const;
// UPDATE in the info colour (spec section 2): Fluent's informative is grey; brand is its blue.
const CHIP = { CREATE: 'success', UPDATE: 'brand', DELETE: 'danger' } as const;

const useStyles = makeStyles({
  filters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(170px, 1fr))',
    // Boxes stay in line with each other when a date below them says what is wrong.
    alignItems: 'start',
    gap: tokens.spacingHorizontalM,
  },
  details: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  data: {
    margin: 0,
    maxHeight: '400px',
    overflow: 'auto',
    padding: tokens.spacingHorizontalS,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** Shown data leaves out timestamps and the password (the server drops them too). */
const HIDDEN = new Set(['created_at', 'updated_at', 'createdAt', 'updatedAt', 'password', 'password_hash']);
export function shownData(data: Record<string, unknown> | null): string {
  if (!data) return 'N/A';
  const kept = Object.fromEntries(Object.entries(data).filter(([k]) => !HIDDEN.has(k)));
  return Object.keys(kept).length ? JSON.stringify(kept, null, 2) : 'N/A';
}

/** Activity Log (spec section 2; Admin only). */
export function ActivityLogPage() {
  return (
    <ScreenProviders>
      <ActivityLog />
    </ScreenProviders>
  );
}

/** Filters in the URL, each change a history entry (Back returns to the last filter) and page 1. */
function ActivityLog() {
  const styles = useStyles();
  const list = useListState({ pageSize: 25, filters: FILTERS, history: 'push' });
  const f = list.filters;
  const query = useQuery(activityLogQuery(list.page, list.pageSize, f));
  const users = useQuery(userChoicesQuery());

  const columns: Column<ActivityEntry>[] = [
    {
      key: 'action',
      header: 'Action',
      width: '110px',
      card: 'title',
      render: (r) => (
        <Badge appearance="filled" color={CHIP[r.action_type as keyof typeof CHIP] ?? 'subtle'}>
          {r.action_type}
        </Badge>
      ),
    },
    {
      key: 'entity',
      header: 'Entity',
      card: 'title',
      render: (r) => (
        <div>
          <Text block weight="semibold">
            {r.model_name}
          </Text>
          <Text size={200} className={styles.muted}>
            {r.model_name === 'Books'
              ? booksChange(r.new_data)
              : r.model_name === 'Import'
                ? `${r.action_type === 'DELETE' ? 'Undo of import' : 'Imported from'} ${String(r.new_data?.file_name ?? '')} by ${r.user?.name ?? 'System/Deleted User'}`
                : `ID: ${r.record_id}`}
          </Text>
        </div>
      ),
    },
    { key: 'user', header: 'User', render: (r) => r.user?.name ?? 'System/Deleted User' },
    { key: 'time', header: 'Timestamp', width: '190px', render: (r) => formatDateTime(r.created_at) },
  ];

  return (
    <Page title="Activity Log">
      <Text>A history of all create, update and delete changes made in Bahi, newest first.</Text>
      <ErrorAlert text={users.isError ? errorText(users.error, 'Failed to load users for filter.') : null} />
      <div className={styles.filters}>
        <Field label="User">
          <Select value={f.userId} onChange={(_, d) => list.setFilter('userId', d.value)}>
            <option value="">All Users</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Action Type">
          <Select value={f.actionType} onChange={(_, d) => list.setFilter('actionType', d.value)}>
            <option value="">All Actions</option>
            <option>CREATE</option>
            <option>UPDATE</option>
            <option>DELETE</option>
          </Select>
        </Field>
        <Field label="Entity Type">
          <Select value={f.modelName} onChange={(_, d) => list.setFilter('modelName', d.value)}>
            <option value="">All Entities</option>
            {ENTITY_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </Select>
        </Field>
        <DateFilter label="From Date" value={f.startDate} onChange={(d) => list.setFilter('startDate', d)} />
        <DateFilter label="To Date" value={f.endDate} onChange={(d) => list.setFilter('endDate', d)} />
      </div>
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch activity logs.') : null} />
      <DataTable
        cards
        label="Activity log"
        columns={columns}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(r) => r.id}
        loading={query.isPending}
        emptyText="No activity logs found for the current filters."
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), PAGE_SIZES)}
        expanded={(r) => (
          <div>
            <Text weight="semibold" block>
              Change Details
            </Text>
            <div className={styles.details}>
              <div>
                <Text size={200} block>
                  Data Before Change
                </Text>
                <pre className={styles.data}>{shownData(r.old_data)}</pre>
              </div>
              <div>
                <Text size={200} block>
                  Data After Change
                </Text>
                <pre className={styles.data}>{shownData(r.new_data)}</pre>
              </div>
            </div>
          </div>
        )}
      />
    </Page>
  );
}

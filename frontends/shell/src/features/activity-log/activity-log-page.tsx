import {
  api,
  type Column,
  DataTable,
  ErrorAlert,
  errorText,
  formatDateTime,
  Page,
  type User,
  useListState,
} from '@bahi/ui';
import { Badge, Field, Input, makeStyles, Select, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import type { ActivityEntry } from '../../shared/activity.ts';

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
];
const FILTERS = ['userId', 'actionType', 'modelName', 'startDate', 'endDate'] as const;
const CHIP = { CREATE: 'success', UPDATE: 'informative', DELETE: 'danger' } as const;

const useStyles = makeStyles({
  filters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(170px, 1fr))',
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

/** Activity Log (spec section 2; Admin only): filters in the URL, any change back to page 1. */
export function ActivityLogPage() {
  const styles = useStyles();
  const list = useListState({ pageSize: 25, filters: FILTERS });
  const f = list.filters;
  const [rows, setRows] = useState<ActivityEntry[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [users, setUsers] = useState<User[]>([]);
  const [usersError, setUsersError] = useState<string | null>(null);

  useEffect(() => {
    api.get<{ data: User[] }>('/masters/users', { limit: -1 }).then(
      (r) => setUsers(r.data),
      (e) => setUsersError(errorText(e, 'Failed to load users for filter.')),
    );
  }, []);
  useEffect(() => {
    let live = true;
    setLoading(true);
    api
      .get<{ data: ActivityEntry[]; totalItems: number }>('/logs', {
        page: list.page,
        limit: list.pageSize,
        userId: f.userId,
        actionType: f.actionType,
        modelName: f.modelName,
        // Full ISO timestamps (spec section 7) that keep the chosen calendar day in any time zone.
        startDate: f.startDate ? `${f.startDate}T00:00:00.000Z` : '',
        endDate: f.endDate ? `${f.endDate}T00:00:00.000Z` : '',
      })
      .then(
        (r) => {
          if (!live) return;
          setRows(r.data);
          setTotal(r.totalItems);
          setError(null);
        },
        (e) => {
          if (!live) return;
          setRows([]);
          setTotal(0);
          setError(errorText(e, 'Failed to fetch activity logs.'));
        },
      )
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [list.page, list.pageSize, f]);

  const columns: Column<ActivityEntry>[] = [
    {
      key: 'action',
      header: 'Action',
      width: '110px',
      render: (r) => (
        <Badge appearance="filled" color={CHIP[r.action_type as keyof typeof CHIP] ?? 'subtle'}>
          {r.action_type}
        </Badge>
      ),
    },
    {
      key: 'entity',
      header: 'Entity',
      render: (r) => (
        <div>
          <Text block weight="semibold">
            {r.model_name}
          </Text>
          <Text size={200} className={styles.muted}>
            ID: {r.record_id}
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
      <ErrorAlert text={usersError} />
      <div className={styles.filters}>
        <Field label="User">
          <Select value={f.userId} onChange={(_, d) => list.setFilter('userId', d.value)}>
            <option value="">All Users</option>
            {users.map((u) => (
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
        <Field label="From Date">
          <Input type="date" value={f.startDate} onChange={(_, d) => list.setFilter('startDate', d.value)} />
        </Field>
        <Field label="To Date">
          <Input type="date" value={f.endDate} onChange={(_, d) => list.setFilter('endDate', d.value)} />
        </Field>
      </div>
      <ErrorAlert text={error} />
      <DataTable
        label="Activity log"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        loading={loading}
        emptyText="No activity logs found for the current filters."
        paging={{
          page: list.page,
          pageSize: list.pageSize,
          totalItems: total,
          pageSizes: PAGE_SIZES,
          onPage: list.setPage,
          onPageSize: list.setPageSize,
        }}
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

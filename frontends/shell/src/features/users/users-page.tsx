import {
  api,
  type Column,
  ConfirmDialog,
  DataTable,
  ErrorAlert,
  errorText,
  FormDialog,
  Page,
  ROLES,
  type Role,
  type User,
  useListState,
  useSession,
  useSnackbar,
} from '@bahi/ui';
import { Badge, Button, Checkbox, Field, Input, Select, Switch, Tooltip } from '@fluentui/react-components';
import { AddRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { useCallback, useEffect, useState } from 'react';

const PAGE_SIZES = [10, 15, 25, 50, 100];
const ROLE_COLOR: Record<Role, 'brand' | 'informative' | 'success' | 'subtle'> = {
  Admin: 'brand',
  Manager: 'informative',
  Collector: 'success',
  Viewer: 'subtle',
};

interface Form {
  name: string;
  email: string;
  phone: string;
  role: Role;
  is_active: boolean;
  password: string;
}
const EMPTY: Form = { name: '', email: '', phone: '', role: 'Viewer', is_active: true, password: '' };

/** User Management (spec section 2; Admin only). */
export function UsersPage() {
  const { user: me } = useSession();
  const notify = useSnackbar();
  const list = useListState({ pageSize: 15 });
  const [rows, setRows] = useState<User[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string | null; form: Form } | null>(null);
  const [touched, setTouched] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const page = await api.get<{ data: User[]; totalItems: number }>('/masters/users', {
        page: list.page,
        limit: list.pageSize,
      });
      setRows(page.data);
      setTotal(page.totalItems);
      setError(null);
    } catch (e) {
      setRows([]);
      setTotal(0);
      setError(errorText(e, 'Failed to fetch users.'));
    } finally {
      setLoading(false);
    }
  }, [list.page, list.pageSize]);
  useEffect(() => {
    void load();
  }, [load]);

  const open = (u: User | null) => {
    setTouched(false);
    setSaveError(null);
    setEditing(
      u
        ? {
            id: u.id,
            form: {
              name: u.name,
              email: u.email,
              phone: u.phone ?? '',
              role: u.role,
              is_active: u.is_active,
              password: '',
            },
          }
        : { id: null, form: EMPTY },
    );
  };
  const set = <K extends keyof Form>(key: K, value: Form[K]) =>
    setEditing((e) => (e ? { ...e, form: { ...e.form, [key]: value } } : e));

  const save = async () => {
    if (!editing) return;
    setTouched(true);
    const f = editing.form;
    if (!f.name.trim() || !f.email.trim() || !f.role || (!editing.id && !f.password)) return;
    const body: Record<string, unknown> = {
      name: f.name.trim(),
      email: f.email.trim(),
      phone: f.phone.trim() || null,
      role: f.role,
      is_active: f.is_active,
    };
    // A blank password is left out: on edit it keeps the current one (spec section 5).
    if (f.password) body.password = f.password;
    setBusy(true);
    setSaveError(null);
    try {
      if (editing.id) await api.put(`/masters/users/${editing.id}`, body);
      else await api.post('/masters/users', body);
      notify(editing.id ? 'User updated successfully!' : 'User created successfully!');
      setEditing(null);
      await load();
    } catch (e) {
      setSaveError(errorText(e, 'An unexpected error occurred.'));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`/masters/users/${deleting.id}`);
      notify('User deleted successfully!');
      await load();
    } catch (e) {
      setError(errorText(e, 'Failed to delete user.'));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  const columns: Column<User>[] = [
    { key: 'name', header: 'Name', render: (u) => u.name },
    { key: 'email', header: 'Email', render: (u) => u.email },
    { key: 'phone', header: 'Phone', render: (u) => u.phone || 'N/A' },
    {
      key: 'role',
      header: 'Role',
      render: (u) => (
        <Badge appearance="tint" color={ROLE_COLOR[u.role]}>
          {u.role}
        </Badge>
      ),
    },
    {
      key: 'active',
      header: 'Active',
      render: (u) => (
        <Checkbox checked={u.is_active} disabled aria-label={u.is_active ? 'Active' : 'Inactive'} />
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      width: '100px',
      render: (u) => (
        <>
          <Tooltip content={`Edit ${u.name}`} relationship="label">
            <Button appearance="subtle" icon={<EditRegular />} onClick={() => open(u)} />
          </Tooltip>
          <Tooltip
            content={u.id === me?.id ? 'You cannot delete yourself' : `Delete ${u.name}`}
            relationship="label"
          >
            <Button
              appearance="subtle"
              icon={<DeleteRegular />}
              disabled={u.id === me?.id}
              onClick={() => setDeleting(u)}
            />
          </Tooltip>
        </>
      ),
    },
  ];

  const f = editing?.form ?? EMPTY;
  const req = (v: string, label: string) => (touched && !v.trim() ? `${label} is required` : undefined);
  return (
    <Page
      title="User Management"
      actions={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => open(null)}>
          New User
        </Button>
      }
    >
      <ErrorAlert text={error} />
      <DataTable
        label="Users"
        columns={columns}
        rows={rows}
        rowKey={(u) => u.id}
        loading={loading}
        emptyText="No users found."
        paging={{
          page: list.page,
          pageSize: list.pageSize,
          totalItems: total,
          pageSizes: PAGE_SIZES,
          onPage: list.setPage,
          onPageSize: list.setPageSize,
        }}
      />
      <FormDialog
        open={!!editing}
        title={editing?.id ? 'Edit User' : 'Add New User'}
        busy={busy}
        error={saveError}
        onClose={() => setEditing(null)}
        onSubmit={() => void save()}
      >
        <Field label="Full Name" required validationMessage={req(f.name, 'Full Name')}>
          <Input value={f.name} onChange={(_, d) => set('name', d.value)} />
        </Field>
        <Field label="Email" required validationMessage={req(f.email, 'Email')}>
          <Input type="email" value={f.email} onChange={(_, d) => set('email', d.value)} />
        </Field>
        <Field label="Phone">
          <Input value={f.phone} onChange={(_, d) => set('phone', d.value)} />
        </Field>
        <Field label="Role" required>
          <Select value={f.role} onChange={(_, d) => set('role', d.value as Role)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </Select>
        </Field>
        <Field
          label="Password"
          required={!editing?.id}
          hint={editing?.id ? 'Leave blank to keep current password' : 'Min. 6 characters required'}
          validationMessage={!editing?.id && touched && !f.password ? 'Password is required' : undefined}
        >
          <Input
            type="password"
            autoComplete="new-password"
            value={f.password}
            onChange={(_, d) => set('password', d.value)}
          />
        </Field>
        <Switch label="Active" checked={f.is_active} onChange={(_, d) => set('is_active', d.checked)} />
      </FormDialog>
      <ConfirmDialog
        open={!!deleting}
        title="Delete User?"
        message={`Are you sure you want to permanently delete user "${deleting?.name ?? ''}"?`}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </Page>
  );
}

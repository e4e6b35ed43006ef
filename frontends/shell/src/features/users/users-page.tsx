import {
  api,
  type Column,
  ConfirmDialog,
  DataTable,
  ErrorAlert,
  errorText,
  listPaging,
  Page,
  type Role,
  type User,
  useListState,
  useSession,
} from '@bahi/ui';
import { ScreenProviders, useConfirmDelete, useMutation, useQuery, useQueryClient } from '@bahi/ui/screen';
import { Badge, Button, Checkbox, Tooltip } from '@fluentui/react-components';
import { AddRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { usersQuery } from './api.ts';
import { UserFormDialog } from './user-form-dialog.tsx';

const PAGE_SIZES = [10, 15, 25, 50, 100];
const ROLE_COLOR: Record<Role, 'brand' | 'informative' | 'success' | 'subtle'> = {
  Admin: 'brand',
  Manager: 'informative',
  Collector: 'success',
  Viewer: 'subtle',
};

/** User Management (spec section 2; Admin only). */
export function UsersPage() {
  return (
    <ScreenProviders>
      <Users />
    </ScreenProviders>
  );
}

function Users() {
  const { user: me } = useSession();
  const client = useQueryClient();
  const list = useListState({ pageSize: 15 });
  const query = useQuery(usersQuery({ page: list.page, limit: list.pageSize }));
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/masters/users/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'users'] }),
  });
  const [editing, setEditing] = useState<User | 'new' | null>(null);

  const del = useConfirmDelete<User>({
    remove: (id) => remove.mutateAsync(id),
    done: 'User deleted successfully!',
    fallback: 'Failed to delete user.',
  });

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
      card: 'action',
      render: (u) => (
        <>
          <Tooltip content={`Edit ${u.name}`} relationship="label">
            <Button appearance="subtle" icon={<EditRegular />} onClick={() => setEditing(u)} />
          </Tooltip>
          <Tooltip
            content={u.id === me?.id ? 'You cannot delete yourself' : `Delete ${u.name}`}
            relationship="label"
          >
            <Button
              appearance="subtle"
              icon={<DeleteRegular />}
              disabled={u.id === me?.id}
              onClick={() => del.ask(u)}
            />
          </Tooltip>
        </>
      ),
    },
  ];

  return (
    <Page
      title="User Management"
      actions={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing('new')}>
          New User
        </Button>
      }
    >
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch users.') : del.error} />
      <DataTable
        cards
        label="Users"
        columns={columns}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(u) => u.id}
        loading={query.isPending}
        emptyText="No users found."
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), PAGE_SIZES)}
      />
      {editing ? (
        <UserFormDialog user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={!!del.deleting}
        title="Delete User?"
        message={`Are you sure you want to permanently delete user "${del.deleting?.name ?? ''}"?`}
        busy={del.busy}
        onCancel={del.cancel}
        onConfirm={() => void del.confirm()}
      />
    </Page>
  );
}

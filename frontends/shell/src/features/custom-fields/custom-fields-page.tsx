import { api, type Column, ConfirmDialog, DataTable, ErrorAlert, errorText, Page } from '@bahi/ui';
import { ScreenProviders, useConfirmDelete, useMutation, useQuery, useQueryClient } from '@bahi/ui/screen';
import { Badge, Button, Tooltip } from '@fluentui/react-components';
import { AddRegular, CheckmarkRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { type CustomField, customFieldsQuery, TYPE_LABEL } from './api.ts';
import { CustomFieldFormDialog } from './custom-field-form-dialog.tsx';

/** Transaction Custom Fields (spec sections 2 and 5; Admin and Manager). */
export function CustomFieldsPage() {
  return (
    <ScreenProviders>
      <CustomFields />
    </ScreenProviders>
  );
}

function CustomFields() {
  const client = useQueryClient();
  const query = useQuery(customFieldsQuery());
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/masters/custom-fields/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'custom-fields'] }),
  });
  const [editing, setEditing] = useState<CustomField | 'new' | null>(null);
  const del = useConfirmDelete<CustomField>({
    remove: (id) => remove.mutateAsync(id),
    done: 'Custom field deleted successfully!',
    fallback: 'Failed to delete custom field.',
  });

  const columns: Column<CustomField>[] = [
    { key: 'name', header: 'Field Name', render: (c) => c.name },
    { key: 'type', header: 'Type', render: (c) => TYPE_LABEL[c.type] ?? c.type },
    {
      key: 'forms',
      header: 'Applies To',
      render: (c) =>
        c.entity_types.map((t) => (
          <Badge key={t} appearance="tint" style={{ marginRight: 4 }}>
            {t}
          </Badge>
        )),
    },
    {
      key: 'required',
      header: 'Required',
      render: (c) => (c.is_required ? <CheckmarkRegular aria-label="Required" /> : null),
    },
    {
      key: 'options',
      header: 'Options',
      render: (c) => (c.type === 'SELECT' && c.options?.length ? c.options.join(', ') : 'N/A'),
    },
    {
      key: 'actions',
      header: 'Actions',
      width: '100px',
      card: 'action',
      render: (c) => (
        <>
          <Tooltip content={`Edit ${c.name}`} relationship="label">
            <Button appearance="subtle" icon={<EditRegular />} onClick={() => setEditing(c)} />
          </Tooltip>
          <Tooltip content={`Delete ${c.name}`} relationship="label">
            <Button appearance="subtle" icon={<DeleteRegular />} onClick={() => del.ask(c)} />
          </Tooltip>
        </>
      ),
    },
  ];

  return (
    <Page
      title="Transaction Custom Fields"
      actions={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing('new')}>
          New Custom Field
        </Button>
      }
    >
      <ErrorAlert
        text={query.isError ? errorText(query.error, 'Failed to fetch custom fields.') : del.error}
      />
      <DataTable
        cards
        label="Custom fields"
        columns={columns}
        rows={query.isError ? [] : (query.data ?? [])}
        rowKey={(c) => c.id}
        loading={query.isPending}
        emptyText="No custom fields defined yet."
      />
      {editing ? (
        <CustomFieldFormDialog field={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={!!del.deleting}
        title="Delete Custom Field?"
        message={`Are you sure you want to permanently delete "${del.deleting?.name ?? ''}"? All data entered for this field on existing transactions will also be deleted.`}
        busy={del.busy}
        onCancel={del.cancel}
        onConfirm={() => void del.confirm()}
      />
    </Page>
  );
}

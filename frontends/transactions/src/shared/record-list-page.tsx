import { adjustsWords } from '@bahi/contracts/books-words';
import {
  type Column,
  ConfirmDialog,
  DataTable,
  ErrorAlert,
  errorText,
  formatAmount,
  formatDate,
  formatQuantity,
  formatRate,
  lazyNamed,
  listPaging,
  Page,
  RoleGate,
  useListState,
} from '@bahi/ui';
import { CityTabsFromQuery, type Page as ListPage, useClosedReason, useConfirmDelete } from '@bahi/ui/screen';
import { Button, makeStyles, Text, Tooltip, tokens } from '@fluentui/react-components';
import {
  AddRegular,
  ArrowUndoRegular,
  CopyRegular,
  DeleteRegular,
  DocumentEditRegular,
  EditRegular,
} from '@fluentui/react-icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, Suspense, useState } from 'react';
import { CustomFieldValues } from './custom-field-inputs.tsx';
import { RECORDS, type RecordKind } from './records.ts';
import { type CustomFieldValue, remove, useTransactionWrite } from './transaction-api.ts';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const ReturnDialog = lazyNamed(() => import('./return-dialog.tsx'), 'ReturnDialog');

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'nowrap' },
});

export const RECORD_PAGE_SIZES = [10, 15, 25, 50, 100];
const MANAGERS = ['Admin', 'Manager'] as const;

/** A purchase or a sale as its list shows it. */
export interface RecordRow {
  id: string;
  remaining: string;
  product: { name: string | null } | null;
  rate: string;
  quantity: string;
  total: string;
  adjusts: { id: string; kind: string; date: string } | null;
  customFieldValues: CustomFieldValue[];
}

export type RecordListState = ReturnType<typeof useListState<never>>;

/** The record a new entry adjusts (issue #30): as the request names it, and its kind and date for words. */
export interface AdjustsRef {
  id: string;
  kind: string;
  date: string;
}

/**
 * The create/edit dialog of a purchase or a sale: `record` null for a new one in the city;
 * `template` to duplicate as new; `adjusts` for a new entry that adjusts a record of the closed
 * period (started from its values).
 */
export interface RecordFormProps<T> {
  record: T | null;
  template?: T | null;
  adjusts?: AdjustsRef | undefined;
  cityId: string;
  onClose(): void;
}

/**
 * Purchases and Sales (spec section 2): a tab per city (the first chosen), the table with its
 * expand toggle, and Return, Edit and Delete for Admin and Manager only (the server refuses
 * others too); Return is disabled when nothing remains; Delete warns what it reverses.
 */
export function RecordListPage<T extends RecordRow>(props: {
  kind: RecordKind;
  /** The row's business date: rows in the closed period cannot be edited or deleted. */
  date(row: T): string;
  useRows(list: RecordListState, cityId: string): UseQueryResult<ListPage<T>>;
  /** The columns between the date and the figures (rate, quantity, remaining, total). */
  columns: Column<T>[];
  /** The expanded row's own lines; what it adjusts and its custom fields follow. */
  expanded(row: T): ReactNode;
  form: ComponentType<RecordFormProps<T>>;
}) {
  const { title, path } = RECORDS[props.kind];
  const Form = props.form;
  const styles = useStyles();
  const list = useListState<never>({ pageSize: 15 });
  const cityId = list.tab ?? '';
  const query = props.useRows(list, cityId);
  const del = useTransactionWrite(remove(path));
  const [editing, setEditing] = useState<T | 'new' | { duplicate: T } | { adjust: T } | null>(null);
  const [returning, setReturning] = useState<T | null>(null);
  const noun = props.kind.toLowerCase();
  const closedReason = useClosedReason();
  const close = () => setEditing(null);

  const deletion = useConfirmDelete<T>({
    remove: (id) => del.mutateAsync(id),
    done: `${props.kind} deleted successfully!`,
    fallback: `Failed to delete ${noun}.`,
  });

  const columns: Column<T>[] = [
    { key: 'date', header: 'Date', render: (r) => formatDate(props.date(r)) },
    ...props.columns,
    { key: 'rate', header: 'Rate', card: 'figure', render: (r) => formatRate(r.rate) },
    { key: 'quantity', header: 'Quantity', card: 'figure', render: (r) => formatQuantity(r.quantity) },
    { key: 'remaining', header: 'Remaining', card: 'figure', render: (r) => formatQuantity(r.remaining) },
    { key: 'total', header: 'Total', card: 'figure', render: (r) => formatAmount(r.total) },
    {
      key: 'actions',
      header: 'Actions',
      width: '230px',
      card: 'action',
      render: (r) => {
        // In the closed period: Edit and Delete disabled, the reason their tooltip and description.
        const closed = closedReason(props.date(r));
        return (
          <RoleGate roles={MANAGERS}>
            <span className={styles.actions}>
              <Tooltip content={`Return ${noun}`} relationship="label">
                <Button
                  appearance="subtle"
                  size="small"
                  icon={<ArrowUndoRegular />}
                  disabled={!/[1-9]/.test(r.remaining)}
                  onClick={() => setReturning(r)}
                />
              </Tooltip>
              <Tooltip content={`Duplicate ${noun} as new`} relationship="label">
                <Button
                  appearance="subtle"
                  size="small"
                  icon={<CopyRegular />}
                  onClick={() => setEditing({ duplicate: r })}
                />
              </Tooltip>
              <Tooltip content={closed ?? `Edit ${noun}`} relationship={closed ? 'description' : 'label'}>
                <Button
                  appearance="subtle"
                  size="small"
                  aria-label={`Edit ${noun}`}
                  icon={<EditRegular />}
                  disabledFocusable={!!closed}
                  onClick={() => setEditing(r)}
                />
              </Tooltip>
              <Tooltip content={closed ?? `Delete ${noun}`} relationship={closed ? 'description' : 'label'}>
                <Button
                  appearance="subtle"
                  size="small"
                  aria-label={`Delete ${noun}`}
                  icon={<DeleteRegular />}
                  disabledFocusable={!!closed}
                  onClick={() => deletion.ask(r)}
                />
              </Tooltip>
              {closed ? (
                // A correction of the closed period: a new entry of the open period that refers to this one.
                <Tooltip
                  content={`Adjust ${noun}: a correction dated in the open period`}
                  relationship="description"
                >
                  <Button
                    appearance="subtle"
                    size="small"
                    aria-label={`Adjust ${noun}`}
                    icon={<DocumentEditRegular />}
                    onClick={() => setEditing({ adjust: r })}
                  >
                    Adjust
                  </Button>
                </Tooltip>
              ) : null}
            </span>
          </RoleGate>
        );
      },
    },
  ];

  return (
    <Page
      title={title}
      actions={
        <RoleGate roles={MANAGERS}>
          <Button
            appearance="primary"
            icon={<AddRegular />}
            disabled={!cityId}
            onClick={() => setEditing('new')}
          >
            New {props.kind}
          </Button>
        </RoleGate>
      }
    >
      <CityTabsFromQuery value={cityId} onChange={(id) => list.setTab(id)} />
      <ErrorAlert
        text={
          query.isError ? errorText(query.error, `Failed to fetch ${title.toLowerCase()}.`) : deletion.error
        }
      />
      <DataTable
        label={title}
        columns={columns}
        rows={query.isError || !cityId ? [] : (query.data?.data ?? [])}
        rowKey={(r) => r.id}
        loading={!cityId || query.isPending}
        emptyText={`No ${title.toLowerCase()} found.`}
        expanded={(r) => (
          <div>
            {props.expanded(r)}
            {r.adjusts ? (
              <Text block size={200}>
                <strong>{adjustsWords(r.adjusts)}</strong>
              </Text>
            ) : null}
            <CustomFieldValues values={r.customFieldValues} />
          </div>
        )}
        cards
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), RECORD_PAGE_SIZES)}
      />
      <Suspense fallback={null}>
        {editing === null ? null : editing === 'new' ? (
          <Form record={null} cityId={cityId} onClose={close} />
        ) : 'duplicate' in editing ? (
          <Form record={null} template={editing.duplicate} cityId={cityId} onClose={close} />
        ) : 'adjust' in editing ? (
          <Form
            record={null}
            template={editing.adjust}
            adjusts={{
              id: editing.adjust.id,
              kind: props.kind,
              date: props.date(editing.adjust).slice(0, 10),
            }}
            cityId={cityId}
            onClose={close}
          />
        ) : (
          <Form record={editing} cityId={cityId} onClose={close} />
        )}
        {returning ? (
          <ReturnDialog kind={props.kind} record={returning} onClose={() => setReturning(null)} />
        ) : null}
      </Suspense>
      <ConfirmDialog
        open={!!deletion.deleting}
        title={`Delete ${props.kind}?`}
        message={`Deleting this ${noun} reverses all its financial and stock entries (and those of its returns). This cannot be undone.`}
        busy={deletion.busy}
        onCancel={deletion.cancel}
        onConfirm={() => void deletion.confirm()}
      />
    </Page>
  );
}

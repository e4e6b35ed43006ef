import {
  type Column,
  ConfirmDialog,
  DataTable,
  ErrorAlert,
  errorText,
  listPaging,
  Page,
  useListState,
} from '@bahi/ui';
import { FilterBar, type Page as ListPage, SearchInput, useConfirmDelete } from '@bahi/ui/screen';
import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, Suspense, useState } from 'react';
import { useMasterMutations } from './master-api.ts';
import { RowActions } from './row-actions.tsx';

/** Spec section 9: 15 a page by default. */
export const PAGE_SIZE = 15;
export const PAGE_SIZES = [10, 15, 25, 50, 100];

type Filters = 'search' | 'city_id' | 'asOf';
/** A master list's URL state: page, page size and the filters. */
export type ListState = ReturnType<typeof useListState<Filters>>;

export interface MasterPageProps<T extends { id: string; name: string }> {
  /** 'City', 'Funder': in 'New City', 'City created successfully!', 'Delete City?'. */
  kind: string;
  title: string;
  /** `/masters/{path}` */
  path: string;
  searchLabel: string;
  fetchFallback: string;
  emptyText: string;
  deleteMessage(item: T): string;
  /** The list's query (a hook: called once per render with the URL's list state). */
  useRows(list: ListState): UseQueryResult<ListPage<T>>;
  /** Filters after the search box (city, as of). */
  filters?(list: ListState): ReactNode;
  /** Under the filters (what the as-of date means). */
  caption?(list: ListState): ReactNode;
  columns: Column<T>[];
  /** A money action button before edit and delete. */
  rowAction?(item: T, open: () => void): ReactNode;
  actionDialog?(item: T, close: () => void): ReactNode;
  form(item: T | null, close: () => void, list: ListState): ReactNode;
}

/**
 * One master list (spec section 2): search (500 ms), filters and paging in the URL, the table,
 * New / edit / delete with the confirmation, and the kind's money action. Server data only
 * through the query; the live stream refreshes it without touching the filters or a dialog.
 */
export function MasterPage<T extends { id: string; name: string }>(props: MasterPageProps<T>) {
  const list = useListState<Filters>({ pageSize: PAGE_SIZE, filters: ['search', 'city_id', 'asOf'] });
  const query = props.useRows(list);
  const { remove } = useMasterMutations(props.path);
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [acting, setActing] = useState<T | null>(null);
  const del = useConfirmDelete<T>({
    remove: (id) => remove.mutateAsync(id),
    done: `${props.kind} deleted successfully!`,
    // A master still referred to answers 409 with what refers to it (ACCOUNTING.md 5.6).
    fallback: `Failed to delete ${props.kind.toLowerCase()}.`,
  });

  const columns: Column<T>[] = [
    ...props.columns,
    {
      key: 'actions',
      header: 'Actions',
      card: 'action',
      width: props.rowAction ? '200px' : '100px',
      render: (item) => (
        <RowActions name={item.name} onEdit={() => setEditing(item)} onDelete={() => del.ask(item)}>
          {props.rowAction?.(item, () => setActing(item))}
        </RowActions>
      ),
    },
  ];
  const close = () => setEditing(null);
  return (
    <Page
      title={props.title}
      actions={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing('new')}>
          New {props.kind}
        </Button>
      }
    >
      <FilterBar>
        <SearchInput
          label={props.searchLabel}
          value={list.filters.search}
          onChange={(v) => list.setFilter('search', v)}
        />
        {props.filters?.(list)}
      </FilterBar>
      {props.caption?.(list)}
      <ErrorAlert text={query.isError ? errorText(query.error, props.fetchFallback) : del.error} />
      <DataTable
        label={props.title}
        columns={columns}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(item) => item.id}
        loading={query.isPending}
        emptyText={props.emptyText}
        cards
        paging={listPaging(list, query.isError ? 0 : (query.data?.totalItems ?? 0), PAGE_SIZES)}
      />
      <Suspense fallback={null}>
        {editing ? props.form(editing === 'new' ? null : editing, close, list) : null}
        {acting && props.actionDialog ? props.actionDialog(acting, () => setActing(null)) : null}
      </Suspense>
      <ConfirmDialog
        open={!!del.deleting}
        title={`Delete ${props.kind}?`}
        message={del.deleting ? props.deleteMessage(del.deleting) : ''}
        busy={del.busy}
        onCancel={del.cancel}
        onConfirm={() => void del.confirm()}
      />
    </Page>
  );
}

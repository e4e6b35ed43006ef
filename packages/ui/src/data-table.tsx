import { Spinner } from '@fluentui/react-components';
import { lazy, type ReactNode, Suspense } from 'react';
import type { CardRole } from './row-card.tsx';

/** The default page-size options (spec section 9); screens pass their own where the spec says so. */
export const DEFAULT_PAGE_SIZES = [10, 25, 50, 100] as const;

export interface Column<T> {
  key: string;
  header: ReactNode;
  render(row: T): ReactNode;
  /** A narrow column (actions, toggles). */
  width?: string;
  /** Its place when the row is a card (`cards`, on a phone): the first column is the title, others details. */
  card?: CardRole;
}

export interface DataTableProps<T> {
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey(row: T): string;
  loading?: boolean;
  emptyText: string;
  /** Server paging; left out for a plain list. */
  paging?: {
    page: number;
    pageSize: number;
    totalItems: number;
    pageSizes: readonly number[];
    onPage(page: number): void;
    onPageSize(size: number): void;
  };
  /** Expandable rows: what an expanded row shows. */
  expanded?(row: T): ReactNode;
  /**
   * On a phone (below 600 px) each row is a card: title, details, the amounts labelled beneath
   * (`Column.card`), actions; so a list that carries money needs no sideways scrolling.
   */
  cards?: boolean;
}

/** A list's paging for its table, from its URL state (`useListState`) and the server's count. */
export function listPaging(
  list: { page: number; pageSize: number; setPage(page: number): void; setPageSize(size: number): void },
  totalItems: number,
  pageSizes: readonly number[] = DEFAULT_PAGE_SIZES,
): NonNullable<DataTableProps<unknown>['paging']> {
  return {
    page: list.page,
    pageSize: list.pageSize,
    totalItems,
    pageSizes,
    onPage: list.setPage,
    onPageSize: list.setPageSize,
  };
}

// Fluent's table loads with the first table on screen, not with every first page.
const Impl = lazy(() => import('./data-table-impl.tsx'));

/** A table of one page of a server-paged list, with its page-size choice and page buttons. */
export function DataTable<T>(props: DataTableProps<T>) {
  return (
    <Suspense fallback={<Spinner size="small" label="Loading" />}>
      <Impl {...(props as DataTableProps<unknown>)} />
    </Suspense>
  );
}

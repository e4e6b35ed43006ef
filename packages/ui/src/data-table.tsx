import {
  Button,
  makeStyles,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ChevronDownRegular, ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { Fragment, type ReactNode, useId, useState } from 'react';

/** The default page-size options (spec section 9); screens pass their own where the spec says so. */
export const DEFAULT_PAGE_SIZES = [10, 25, 50, 100] as const;

export interface Column<T> {
  key: string;
  header: ReactNode;
  render(row: T): ReactNode;
  /** A narrow column (actions, toggles). */
  width?: string;
}

const useStyles = makeStyles({
  wrap: { overflowX: 'auto', width: '100%' },
  table: { minWidth: '560px' },
  footer: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'flex-end',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} 0`,
  },
  empty: { padding: tokens.spacingVerticalL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  expanded: { backgroundColor: tokens.colorNeutralBackground2 },
  rotate: { transform: 'rotate(-90deg)' },
});

/** A table of one page of a server-paged list, with its page-size choice and page buttons. */
export function DataTable<T>(props: {
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
}) {
  const styles = useStyles();
  const sizeId = useId();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });
  const span = props.columns.length + (props.expanded ? 1 : 0);
  const p = props.paging;
  const first = p && p.totalItems > 0 ? (p.page - 1) * p.pageSize + 1 : 0;
  const last = p ? Math.min(p.totalItems, p.page * p.pageSize) : 0;
  return (
    <div>
      <div className={styles.wrap}>
        <Table aria-label={props.label} className={styles.table} size="small">
          <TableHeader>
            <TableRow>
              {props.expanded ? <TableHeaderCell style={{ width: '44px' }} aria-label="Expand" /> : null}
              {props.columns.map((c) => (
                <TableHeaderCell key={c.key} style={c.width ? { width: c.width } : undefined}>
                  {c.header}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {props.loading && props.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={span}>
                  <Spinner size="small" label="Loading" />
                </TableCell>
              </TableRow>
            ) : props.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={span}>
                  <div className={styles.empty}>{props.emptyText}</div>
                </TableCell>
              </TableRow>
            ) : (
              props.rows.map((row) => {
                const key = props.rowKey(row);
                const isOpen = open.has(key);
                return (
                  <Fragment key={key}>
                    <TableRow>
                      {props.expanded ? (
                        <TableCell>
                          <Button
                            appearance="subtle"
                            size="small"
                            aria-expanded={isOpen}
                            aria-label={isOpen ? 'Collapse row' : 'Expand row'}
                            icon={<ChevronDownRegular className={isOpen ? undefined : styles.rotate} />}
                            onClick={() => toggle(key)}
                          />
                        </TableCell>
                      ) : null}
                      {props.columns.map((c) => (
                        <TableCell key={c.key}>{c.render(row)}</TableCell>
                      ))}
                    </TableRow>
                    {props.expanded && isOpen ? (
                      <TableRow className={styles.expanded}>
                        <TableCell colSpan={span}>{props.expanded(row)}</TableCell>
                      </TableRow>
                    ) : null}
                  </Fragment>
                );
              })
            )}
          </TableBody>
        </Table>
      </div>
      {p ? (
        <div className={styles.footer}>
          <label htmlFor={sizeId}>
            <Text size={200}>Rows per page</Text>
          </label>
          <Select
            id={sizeId}
            size="small"
            value={String(p.pageSize)}
            onChange={(_, d) => p.onPageSize(Number(d.value))}
          >
            {p.pageSizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
          <Text size={200}>
            {first}–{last} of {p.totalItems}
          </Text>
          <Button
            appearance="subtle"
            size="small"
            icon={<ChevronLeftRegular />}
            aria-label="Previous page"
            disabled={p.page <= 1}
            onClick={() => p.onPage(p.page - 1)}
          />
          <Button
            appearance="subtle"
            size="small"
            icon={<ChevronRightRegular />}
            aria-label="Next page"
            disabled={last >= p.totalItems}
            onClick={() => p.onPage(p.page + 1)}
          />
        </div>
      ) : null}
    </div>
  );
}

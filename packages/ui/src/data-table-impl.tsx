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
import { Fragment, useId, useState } from 'react';

import type { DataTableProps } from './data-table.tsx';
import { useNarrow } from './narrow.ts';
import { cardRole, RowCard } from './row-card.tsx';

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
  cards: { width: '100%', tableLayout: 'fixed' },
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

/** Loaded with the first table on screen (see data-table.tsx). */
export default function DataTableImpl(props: DataTableProps<unknown>) {
  const styles = useStyles();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });
  const narrow = useNarrow();
  const cards = !!props.cards && narrow;
  const span = cards ? 1 : props.columns.length + (props.expanded ? 1 : 0);
  const p = props.paging;
  return (
    <div>
      <div className={styles.wrap}>
        {/* Columns sized to their content, and wide enough for them: on a phone the table scrolls rather than overlapping text. */}
        <Table
          aria-label={props.label}
          className={cards ? styles.cards : styles.table}
          style={cards ? undefined : { minWidth: `${Math.max(560, span * 96)}px`, tableLayout: 'auto' }}
          size="small"
        >
          <TableHeader className={cards ? styles.hidden : undefined}>
            <TableRow>
              {props.expanded ? <TableHeaderCell style={{ width: '44px' }} aria-label="Expand" /> : null}
              {cards ? (
                <TableHeaderCell>{props.label}</TableHeaderCell>
              ) : (
                props.columns.map((c) => (
                  <TableHeaderCell key={c.key} style={c.width ? { width: c.width } : undefined}>
                    {c.header}
                  </TableHeaderCell>
                ))
              )}
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
                const expander = props.expanded ? (
                  <Button
                    appearance="subtle"
                    size="small"
                    aria-expanded={isOpen}
                    aria-label={isOpen ? 'Collapse row' : 'Expand row'}
                    icon={<ChevronDownRegular className={isOpen ? undefined : styles.rotate} />}
                    onClick={() => toggle(key)}
                  />
                ) : null;
                return (
                  <Fragment key={key}>
                    {cards ? (
                      <TableRow>
                        <TableCell>
                          <RowCard
                            cells={[
                              ...props.columns.map((c, i) => ({
                                key: c.key,
                                label: c.header,
                                role: cardRole(c, i),
                                value: c.render(row),
                              })),
                              ...(expander
                                ? [{ key: '#expand', label: '', role: 'action' as const, value: expander }]
                                : []),
                            ]}
                          />
                        </TableCell>
                      </TableRow>
                    ) : (
                      <TableRow>
                        {expander ? <TableCell>{expander}</TableCell> : null}
                        {props.columns.map((c) => (
                          <TableCell key={c.key}>{c.render(row)}</TableCell>
                        ))}
                      </TableRow>
                    )}
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
      {p ? <Pager paging={p} /> : null}
    </div>
  );
}

/** Rows per page, which rows are shown, and the previous and next page buttons. */
function Pager({ paging: p }: { paging: NonNullable<DataTableProps<unknown>['paging']> }) {
  const styles = useStyles();
  const sizeId = useId();
  const first = p.totalItems > 0 ? (p.page - 1) * p.pageSize + 1 : 0;
  const last = Math.min(p.totalItems, p.page * p.pageSize);
  return (
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
  );
}

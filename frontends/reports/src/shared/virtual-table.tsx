import { type CardRole, cardRole, cardRowHeight, RowCard, useNarrow } from '@bahi/ui';
import { makeStyles, mergeClasses, Spinner, tokens } from '@fluentui/react-components';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MARK_TEXT, type Mark } from './compare.ts';

export interface VColumn<T> {
  key: string;
  header: string;
  render(row: T): ReactNode;
  /** Amount columns: right-aligned, tabular figures. */
  numeric?: boolean;
  width?: string;
  /** Its place on a phone's card (`RowCard`): amounts are figures, the first column the title. */
  card?: CardRole;
}

/** Rows are one line high, always: the window of rows on screen is computed from the scroll. */
export const ROW_HEIGHT = 36;
const OVERSCAN = 10;

const useStyles = makeStyles({
  scroller: {
    overflow: 'auto',
    maxHeight: 'min(68vh, 760px)',
    width: '100%',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  table: {
    borderCollapse: 'separate',
    borderSpacing: 0,
    width: '100%',
    fontSize: tokens.fontSizeBase300,
    tableLayout: 'auto',
  },
  th: {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    textAlign: 'left',
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorNeutralBackground3,
    padding: `0 ${tokens.spacingHorizontalS}`,
    height: `${ROW_HEIGHT}px`,
    whiteSpace: 'nowrap',
    borderBottom: `1px solid ${tokens.colorNeutralStroke1}`,
  },
  td: {
    height: `${ROW_HEIGHT - 1}px`,
    padding: `0 ${tokens.spacingHorizontalS}`,
    whiteSpace: 'nowrap',
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    maxWidth: '420px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  numeric: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  foot: {
    position: 'sticky',
    bottom: 0,
    backgroundColor: tokens.colorNeutralBackground3,
    fontWeight: tokens.fontWeightSemibold,
  },
  empty: { padding: tokens.spacingVerticalL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  added: { backgroundColor: tokens.colorPaletteGreenBackground1 },
  changed: { backgroundColor: tokens.colorPaletteYellowBackground1 },
  removed: { backgroundColor: tokens.colorPaletteRedBackground1 },
  gone: { textDecorationLine: 'line-through', color: tokens.colorNeutralForeground3 },
  dim: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  cards: { tableLayout: 'fixed' },
  cardCell: {
    padding: `0 ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
  },
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

/**
 * A long report table (a ledger of thousands of lines) that only renders the rows in view, so
 * the browser stays responsive: the header and the totals stay put while the rows scroll. The
 * scroller is focusable (arrows and Page Up/Down scroll it); `marks` colour and name the rows a
 * comparison found changed.
 */
export function VirtualTable<T>(props: {
  label: string;
  columns: VColumn<T>[];
  rows: T[];
  rowKey(row: T, index: number): string;
  emptyText: string;
  loading?: boolean;
  marks?: Map<string, Mark>;
  /** Rows A had that the report shown lacks (Compare): shown struck through, after the rest. */
  gone?: T[];
  /** Totals, below the rows; `labels` names a figure on a phone's card where its column's header would not. */
  footer?: { label: string; cells: Record<string, ReactNode>; labels?: Record<string, string> }[];
  /** Rows shown muted (a correction's lines, issue #25): their words say what they are. */
  dim?(row: T): boolean;
  /** On a phone, the card's title may wrap once (a journal line's particulars). */
  cardTitleLines?: 1 | 2;
}) {
  const styles = useStyles();
  // On a phone each row is a card of a fixed height: its title line and its labelled amounts.
  const cards = useNarrow();
  const rowHeight = cards ? cardRowHeight(props.cardTitleLines) : ROW_HEIGHT;
  const card = (values: (c: VColumn<T>) => ReactNode, labels?: Record<string, string>) => (
    <RowCard
      compact
      titleLines={props.cardTitleLines}
      cells={props.columns.map((c, i) => ({
        key: c.key,
        label: labels?.[c.key] ?? c.header,
        role: cardRole(c, i),
        value: values(c),
      }))}
    />
  );
  const scroller = useRef<HTMLElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  const frame = useRef(0);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight || 600);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  const onScroll = useCallback(() => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setTop(scroller.current?.scrollTop ?? 0));
  }, []);
  const gone = props.gone ?? [];
  const all = props.rows.length + gone.length;
  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(all, Math.ceil((top + height) / rowHeight) + OVERSCAN);
  const span = cards ? 1 : props.columns.length;
  const cell = (c: VColumn<T>) => mergeClasses(styles.td, c.numeric && styles.numeric);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const isGone = i >= props.rows.length;
    const row = isGone ? gone[i - props.rows.length]! : props.rows[i]!;
    const key = props.rowKey(row, i);
    const mark: Mark | undefined = isGone ? 'removed' : props.marks?.get(key);
    rows.push(
      <tr
        key={isGone ? `gone:${key}` : key}
        aria-rowindex={i + 2}
        className={mergeClasses(mark && styles[mark], isGone && styles.gone, props.dim?.(row) && styles.dim)}
        title={mark ? MARK_TEXT[mark] : undefined}
        data-mark={mark}
        data-dim={props.dim?.(row) || undefined}
      >
        {cards ? (
          <td className={styles.cardCell}>{card((c) => c.render(row))}</td>
        ) : (
          props.columns.map((c) => (
            <td key={c.key} className={cell(c)}>
              {c.render(row)}
            </td>
          ))
        )}
      </tr>,
    );
  }
  return (
    <section
      ref={scroller}
      className={styles.scroller}
      onScroll={onScroll}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroller takes the keys that scroll it
      tabIndex={0}
      aria-label={`${props.label}, scrollable`}
    >
      <table
        className={mergeClasses(styles.table, cards && styles.cards)}
        aria-label={props.label}
        aria-rowcount={all + 1}
        style={cards ? undefined : { minWidth: `${Math.max(560, span * 110)}px` }}
      >
        <thead className={cards ? styles.hidden : undefined}>
          <tr aria-rowindex={1}>
            {(cards ? [{ key: 'card', header: props.label } as VColumn<T>] : props.columns).map((c) => (
              <th
                key={c.key}
                scope="col"
                className={mergeClasses(styles.th, c.numeric && styles.numeric)}
                style={c.width ? { width: c.width } : undefined}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.loading && all === 0 ? (
            <tr>
              <td colSpan={span} className={styles.empty}>
                <Spinner size="small" label="Loading" />
              </td>
            </tr>
          ) : all === 0 ? (
            <tr>
              <td colSpan={span} className={styles.empty}>
                {props.emptyText}
              </td>
            </tr>
          ) : (
            <>
              {first > 0 ? <tr aria-hidden style={{ height: `${first * rowHeight}px` }} /> : null}
              {rows}
              {last < all ? <tr aria-hidden style={{ height: `${(all - last) * rowHeight}px` }} /> : null}
            </>
          )}
        </tbody>
        {props.footer && all > 0 ? (
          <tfoot>
            {props.footer.map((f, i) => {
              const bottom = { bottom: `${(props.footer!.length - 1 - i) * rowHeight}px` };
              return (
                <tr key={f.label}>
                  {cards ? (
                    <td className={mergeClasses(styles.cardCell, styles.foot)} style={bottom}>
                      {card((c) => (c === props.columns[0] ? f.label : (f.cells[c.key] ?? '')), f.labels)}
                    </td>
                  ) : (
                    props.columns.map((c, j) => (
                      <td key={c.key} className={mergeClasses(cell(c), styles.foot)} style={bottom}>
                        {j === 0 ? f.label : f.cells[c.key]}
                      </td>
                    ))
                  )}
                </tr>
              );
            })}
          </tfoot>
        ) : null}
      </table>
    </section>
  );
}

/**
 * Compare's 'Change' column: what happened to the line since the moment compared with (a row
 * A had that is gone shows 'Removed since').
 */
export function changeColumn<T>(
  compared: { marks: Map<string, Mark>; gone: T[] },
  keyOf: (row: T) => string | undefined,
): VColumn<T> {
  return {
    key: 'change',
    header: 'Change',
    render: (row) => {
      const key = keyOf(row);
      const mark = compared.gone.includes(row) ? 'removed' : key ? compared.marks.get(key) : undefined;
      return mark ? MARK_TEXT[mark] : '';
    },
  };
}

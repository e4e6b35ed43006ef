import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

/**
 * Where a column goes when its row is a card (a phone): `title` on the first line (a date, a
 * name, the particulars), `detail` beneath it as 'Label: value', `figure` in the labelled row of
 * amounts, `action` at the end (buttons), `hide` left out (what the card says otherwise).
 */
export type CardRole = 'title' | 'detail' | 'figure' | 'action' | 'hide';

export interface CardCell {
  key: string;
  label: ReactNode;
  role: CardRole;
  value: ReactNode;
}

/** A column's place on a card: its own, else a figure for amounts, the first column the title. */
export function cardRole(column: { card?: CardRole; numeric?: boolean }, index: number): CardRole {
  return column.card ?? (column.numeric ? 'figure' : index === 0 ? 'title' : 'detail');
}

/** Whether a cell has nothing to show (an empty Debit on a credit line). */
const empty = (v: ReactNode) => v === '' || v === null || v === undefined || v === false;

/** The height of a `compact` card: one title line and one line of labelled figures. */
const CARD_ROW_HEIGHT = 72;

/**
 * The height of a `compact` card whose title may take `titleLines` lines (a ledger's particulars
 * do not fit one line of a phone).
 */
export const cardRowHeight = (titleLines: 1 | 2 = 1) => CARD_ROW_HEIGHT + (titleLines - 1) * 20;

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalXS} 0`,
    minWidth: 0,
  },
  compact: { boxSizing: 'border-box', justifyContent: 'center' },
  title: {
    display: 'flex',
    alignItems: 'baseline',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
    whiteSpace: 'nowrap',
  },
  fixed: { flex: '0 0 auto', whiteSpace: 'nowrap' },
  rest: { flex: '1 1 0', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' },
  /** A compact card's title wraps onto a second line, then ends in an ellipsis. */
  twoLines: { whiteSpace: 'normal' },
  clamped: {
    display: '-webkit-box',
    WebkitBoxOrient: 'vertical',
    WebkitLineClamp: 2,
    whiteSpace: 'normal',
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground3 },
  details: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalM,
    rowGap: 0,
    fontSize: tokens.fontSizeBase200,
  },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(96px, 1fr))',
    columnGap: tokens.spacingHorizontalS,
    margin: 0,
  },
  figure: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  label: {
    fontSize: tokens.fontSizeBase100,
    lineHeight: tokens.lineHeightBase100,
    color: tokens.colorNeutralForeground3,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  value: {
    margin: 0,
    fontVariantNumeric: 'tabular-nums',
    fontWeight: tokens.fontWeightSemibold,
    whiteSpace: 'nowrap',
  },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
});

/**
 * A table row as a card, for a phone (issue #25): the title line, the details, then every
 * amount with its column's name above it, so the money is read without scrolling sideways.
 * `compact` keeps it to a fixed height (the report tables that render only the rows in view):
 * details join the title line, muted; with `titleLines` 2 the title may wrap once before it
 * ends in an ellipsis.
 */
export function RowCard(props: { cells: CardCell[]; compact?: boolean; titleLines?: 1 | 2 }) {
  const styles = useStyles();
  const twoLines = props.compact && props.titleLines === 2;
  const of = (role: CardRole) => props.cells.filter((c) => c.role === role && !empty(c.value));
  const titles = props.compact ? [...of('title'), ...of('detail')] : of('title');
  const details = props.compact ? [] : of('detail');
  const figures = of('figure');
  const actions = of('action');
  return (
    <div
      className={mergeClasses(styles.card, props.compact && styles.compact)}
      style={props.compact ? { height: `${cardRowHeight(props.titleLines) - 1}px` } : undefined}
      data-card=""
    >
      {titles.length ? (
        <div className={mergeClasses(styles.title, twoLines && styles.twoLines)}>
          {titles.map((c, i) => (
            <span
              key={c.key}
              className={mergeClasses(
                i === titles.length - 1 ? styles.rest : styles.fixed,
                i === titles.length - 1 && twoLines && styles.clamped,
                c.role === 'detail' && styles.muted,
              )}
              data-card-title={i === titles.length - 1 ? '' : undefined}
            >
              {c.value}
            </span>
          ))}
        </div>
      ) : null}
      {details.length ? (
        <div className={styles.details}>
          {details.map((c) => (
            <span key={c.key}>
              <span className={styles.muted}>{c.label}: </span>
              {c.value}
            </span>
          ))}
        </div>
      ) : null}
      {figures.length ? (
        <dl className={styles.figures}>
          {figures.map((c) => (
            <div key={c.key} className={styles.figure} data-figure={c.key}>
              <dt className={styles.label}>{c.label}</dt>
              <dd className={styles.value}>{c.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {actions.length ? (
        <div className={styles.actions}>
          {actions.map((c) => (
            <span key={c.key}>{c.value}</span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

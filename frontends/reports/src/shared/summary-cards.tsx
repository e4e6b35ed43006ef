import { formatAmount } from '@bahi/ui';
import { compareDecimal, subtractDecimal } from '@bahi/ui/screen';
import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    padding: tokens.spacingVerticalM,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  value: { fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' },
  negative: { color: tokens.colorPaletteRedForeground1 },
  delta: { fontVariantNumeric: 'tabular-nums' },
  up: { color: tokens.colorPaletteGreenForeground1 },
  down: { color: tokens.colorPaletteRedForeground1 },
});

export interface SummaryCard {
  label: string;
  value: string;
  /** The value as known at the moment compared against: the card shows the difference. */
  before?: string | undefined;
}

/** A change as people read it: '+1,200.00', '-3.50', or null for none. */
export function signedAmount(now: string, then: string): string | null {
  const d = subtractDecimal(now, then, 2);
  const c = compareDecimal(d, '0');
  return c === 0 ? null : `${c > 0 ? '+' : ''}${formatAmount(d)}`;
}

/** The figures above a report (Opening Balance, Total Debit, ...), in the report's currency. */
export function SummaryCards(props: { cards: SummaryCard[]; currency: string; label: string }) {
  const styles = useStyles();
  return (
    <section className={styles.cards} aria-label={props.label}>
      {props.cards.map((c) => {
        const d = c.before === undefined ? undefined : signedAmount(c.value, c.before);
        return (
          <section key={c.label} className={styles.card} aria-label={c.label}>
            <Text size={200}>{c.label}</Text>
            <Text
              size={500}
              weight="semibold"
              className={mergeClasses(styles.value, c.value.startsWith('-') && styles.negative)}
            >
              {formatAmount(c.value)} {props.currency}
            </Text>
            {d !== undefined ? (
              <Text
                size={200}
                className={mergeClasses(
                  styles.delta,
                  d?.startsWith('+') && styles.up,
                  d?.startsWith('-') && styles.down,
                )}
              >
                {d === null ? 'No change since' : `${d} since`}
              </Text>
            ) : null}
          </section>
        );
      })}
    </section>
  );
}

import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { money } from './parties.ts';

const useStyles = makeStyles({
  amount: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  negative: { color: tokens.colorPaletteRedForeground1 },
});

/** An amount in a table cell: 2 decimals, its currency, red below zero (masters and transactions lists). */
export function Amount(props: { value: string | null | undefined; currency: string }) {
  const styles = useStyles();
  return (
    <span className={mergeClasses(styles.amount, (props.value ?? '').startsWith('-') && styles.negative)}>
      {money(props.value, props.currency)}
    </span>
  );
}

import type { LineCorrection } from '@bahi/contracts';
import { useNarrow, useSearchParams } from '@bahi/ui';
import { makeStyles, mergeClasses, Switch, tokens } from '@fluentui/react-components';
import { type ReactNode, useCallback, useMemo } from 'react';

/**
 * 'Show corrections' on the ledger and the cashbook (issue #25): by default each record shows
 * once at its current figures; `corrections=1` in the URL asks the server for the trail
 * (`corrections=true`: every edit's and delete's original, reversal and amended lines), the
 * same for the screen, its PDF and Excel and WhatsApp.
 */
export function useCorrections() {
  const [params, setParams] = useSearchParams();
  const on = params.get('corrections') === '1';
  const set = useCallback(
    (value: boolean) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set('corrections', '1');
        else next.delete('corrections');
        return next;
      }),
    [setParams],
  );
  /** The report's own query parameter: only when asked, so the default reads as before. */
  const query = useMemo((): { corrections?: 'true' } => (on ? { corrections: 'true' } : {}), [on]);
  return { on, set, query };
}

export function CorrectionsSwitch(props: { corrections: ReturnType<typeof useCorrections> }) {
  const { on, set } = props.corrections;
  return <Switch label="Show corrections" checked={on} onChange={(_, d) => set(d.checked)} />;
}

/** What a correction's line is, in a word: the tag beside its particulars. */
export function correctionTag(c: LineCorrection): string | null {
  if (!c) return null;
  if (c.state === 'reversal') return 'Reversal';
  if (c.state === 'amended') return 'Amended';
  return c.action === 'deleted' ? 'Deleted' : 'Replaced';
}

const useStyles = makeStyles({
  tag: {
    display: 'inline-block',
    marginRight: tokens.spacingHorizontalXS,
    padding: `0 ${tokens.spacingHorizontalXS}`,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusSmall,
    fontSize: tokens.fontSizeBase100,
    fontStyle: 'normal',
    lineHeight: tokens.lineHeightBase200,
    color: tokens.colorNeutralForeground2,
    flex: '0 0 auto',
  },
  particulars: { display: 'flex', alignItems: 'center', minWidth: 0, maxWidth: '100%' },
  text: { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  // On a phone's card the words take up to two lines (the card has room for them).
  cardParticulars: { alignItems: 'flex-start' },
  cardText: {
    minWidth: 0,
    overflow: 'hidden',
    display: '-webkit-box',
    WebkitBoxOrient: 'vertical',
    WebkitLineClamp: 2,
    whiteSpace: 'normal',
    overflowWrap: 'anywhere',
    textAlign: 'start',
  },
});

/** The tag of a line a correction touched ('Reversal', 'Replaced', 'Amended', 'Deleted'). */
export function CorrectionTag(props: { correction: LineCorrection }) {
  const styles = useStyles();
  const tag = correctionTag(props.correction);
  return tag ? <span className={styles.tag}>{tag}</span> : null;
}

/**
 * A line's particulars with its correction's tag before them: the words are cut short with an
 * ellipsis where the column is too narrow (on a phone's card, after two lines), the tag never.
 */
export function Particulars(props: { correction: LineCorrection; children(className: string): ReactNode }) {
  const styles = useStyles();
  const card = useNarrow();
  return (
    <span className={mergeClasses(styles.particulars, card && styles.cardParticulars)}>
      <CorrectionTag correction={props.correction} />
      {props.children(card ? styles.cardText : styles.text)}
    </span>
  );
}

/**
 * A line shown muted: one that no longer counts (a superseded original, or the reversal that
 * undoes it). An amended line is the record as it stands and reads normally, with its tag.
 */
export const isCorrected = <T extends { correction: LineCorrection }>(l: T) =>
  !!l.correction && l.correction.state !== 'amended';

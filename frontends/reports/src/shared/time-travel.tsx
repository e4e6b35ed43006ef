import { useSearchParams } from '@bahi/ui';
import {
  DateInput,
  MomentInput,
  showDay,
  showMoment,
  type TypedInputProps,
  timeZoneLabel,
} from '@bahi/ui/screen';
import { Button, Field, makeStyles, Text, tokens } from '@fluentui/react-components';
import { ArrowCounterclockwiseRegular, CheckmarkRegular, HistoryRegular } from '@fluentui/react-icons';
import { useCallback, useId, useMemo, useState } from 'react';

/**
 * The auditor's time-travel state of a report screen, kept in the URL (issue #15):
 * - `asOf`: a business date; the report as it stands for that day (backdated entries on their
 *   own dates);
 * - `knownAt`: a moment; the books exactly as they were recorded then;
 * - `compare`: a moment A; the report as known at A is compared with the one shown (as known
 *   at `knownAt`, or now): lines added, changed or removed since are marked.
 */
export interface TimeTravel {
  asOf: string;
  knownAt: string;
  compare: string;
  /** The query parameters of the report shown. */
  at: { asOf?: string; knownAt?: string };
  /** The query parameters of the report compared against (A), when comparing. */
  baseline: { asOf?: string; knownAt: string } | undefined;
  set(change: Partial<Record<'asOf' | 'knownAt' | 'compare', string>>): void;
}

const KEYS = ['asOf', 'knownAt', 'compare'] as const;

export function useTimeTravel(): TimeTravel {
  const [params, setParams] = useSearchParams();
  const asOf = params.get('asOf') ?? '';
  const knownAt = params.get('knownAt') ?? '';
  const compare = params.get('compare') ?? '';
  const set = useCallback(
    (change: Partial<Record<(typeof KEYS)[number], string>>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(change)) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          next.delete('page');
          return next;
        },
        // Each state is a history entry: Back returns to the report as it was shown before.
        { replace: false },
      ),
    [setParams],
  );
  return useMemo(() => {
    const at: TimeTravel['at'] = {};
    if (asOf) at.asOf = asOf;
    if (knownAt) at.knownAt = knownAt;
    const baseline = compare ? { ...(asOf ? { asOf } : {}), knownAt: compare } : undefined;
    return { asOf, knownAt, compare, at, baseline, set };
  }, [asOf, knownAt, compare, set]);
}

/** What the report shows, in words: for headings and the bar's status line. */
export function describeTimeTravel(tt: Pick<TimeTravel, 'asOf' | 'knownAt' | 'compare'>): string {
  const parts: string[] = [];
  if (tt.asOf) parts.push(`as of ${showDay(tt.asOf)}`);
  parts.push(tt.knownAt ? `as recorded at ${showMoment(tt.knownAt)}` : 'as recorded now');
  let text = `The books ${parts.join(', ')}`;
  if (tt.compare) text += `; marked: what changed since ${showMoment(tt.compare)}`;
  return `${text}.`;
}

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px dashed ${tokens.colorNeutralStroke1}`,
  },
  field: { flex: '1 1 170px', minWidth: 0, maxWidth: '240px' },
  // '25 Nov 2026 14:30:05' and its hint; two to a phone row would crush them.
  momentField: { flex: '1 1 200px', minWidth: 0, maxWidth: '280px' },
  // The buttons line up with the boxes, below the labels.
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, alignSelf: 'flex-start', paddingTop: '26px' },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  toggleRow: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
});

type Key = (typeof KEYS)[number];

/**
 * The bar's boxes: what is typed waits for Apply (or Enter in any box), so a half-typed moment
 * never reads the books; a URL change (Back, Back to now) brings its values into the boxes.
 */
function useDrafts(tt: TimeTravel) {
  const [draft, setDraft] = useState<Record<Key, string>>({
    asOf: tt.asOf,
    knownAt: tt.knownAt,
    compare: tt.compare,
  });
  const [problems, setProblems] = useState<Partial<Record<Key, string>>>({});
  const [applied, setApplied] = useState(`${tt.asOf}|${tt.knownAt}|${tt.compare}`);
  const now = `${tt.asOf}|${tt.knownAt}|${tt.compare}`;
  if (now !== applied) {
    setApplied(now);
    setDraft({ asOf: tt.asOf, knownAt: tt.knownAt, compare: tt.compare });
    setProblems({});
  }
  const box = (key: Key) => ({
    value: draft[key],
    onChange: (v: string) => setDraft((d) => ({ ...d, [key]: v })),
    onProblem: (message: string | undefined) => setProblems((p) => ({ ...p, [key]: message })),
    // Enter applies what the box gave with the other boxes' values; a box with no value does not.
    onEnter: (v: string | null) => {
      if (v !== null) apply({ [key]: v });
    },
  });
  const apply = (change: Partial<Record<Key, string>> = {}) => {
    const next = { ...draft, ...change };
    const wrong = KEYS.filter((k) => problems[k] && !(k in change));
    if (wrong.length) return;
    setDraft(next);
    tt.set(next);
  };
  return { draft, problems, box, apply };
}

function MomentField(props: {
  label: string;
  problem?: string;
  box: Pick<TypedInputProps, 'value' | 'onChange' | 'onProblem' | 'onEnter'>;
}) {
  const styles = useStyles();
  const id = useId();
  return (
    <Field
      label={{ children: props.label, htmlFor: id }}
      className={styles.momentField}
      validationMessage={props.problem}
      hint={props.problem ? undefined : `24-hour time, ${timeZoneLabel()}`}
    >
      <MomentInput id={id} {...props.box} />
    </Field>
  );
}

/**
 * The time-travel bar: As of (a business date), As known at (a moment), Compare with (a moment
 * A), Apply, and Back to now. Every state is in the URL. `asOf: false` on a screen whose report
 * has no business-date view of its own.
 */
export function TimeTravelBar(props: { tt: TimeTravel; asOf?: boolean }) {
  const styles = useStyles();
  const { tt } = props;
  const asOfId = useId();
  const barId = useId();
  const drafts = useDrafts(tt);
  const active = !!(tt.asOf || tt.knownAt || tt.compare);
  // Folded away until wanted (it costs a phone screen's height); open while it is in use.
  const [shown, setShown] = useState(active);
  const open = shown || active;
  return (
    <section aria-label="Time travel" className={styles.section}>
      <div className={styles.toggleRow}>
        <Button
          appearance="subtle"
          icon={<HistoryRegular />}
          aria-expanded={open}
          aria-controls={barId}
          disabled={active}
          onClick={() => setShown(!shown)}
        >
          Time travel
        </Button>
        {active ? <Text size={200}>{describeTimeTravel(tt)}</Text> : null}
      </div>
      <div className={styles.bar} id={barId} style={open ? undefined : { display: 'none' }}>
        {props.asOf === false ? null : (
          <Field
            label={{ children: 'As of', htmlFor: asOfId }}
            className={styles.field}
            validationMessage={drafts.problems.asOf}
          >
            <DateInput id={asOfId} label="As of" placeholder="Today" {...drafts.box('asOf')} />
          </Field>
        )}
        <MomentField label="As known at" problem={drafts.problems.knownAt} box={drafts.box('knownAt')} />
        <MomentField label="Compare with" problem={drafts.problems.compare} box={drafts.box('compare')} />
        <div className={styles.actions}>
          <Button appearance="primary" icon={<CheckmarkRegular />} onClick={() => drafts.apply()}>
            Apply
          </Button>
          <Button
            icon={<ArrowCounterclockwiseRegular />}
            disabled={!active}
            onClick={() => tt.set({ asOf: '', knownAt: '', compare: '' })}
          >
            Back to now
          </Button>
        </div>
      </div>
    </section>
  );
}

import { useSearchParams } from '@bahi/ui';
import { DateInput, showDay } from '@bahi/ui/screen';
import { Button, Field, Input, makeStyles, Text, tokens } from '@fluentui/react-components';
import { ArrowCounterclockwiseRegular, HistoryRegular } from '@fluentui/react-icons';
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

/** A moment for a `datetime-local` input: the browser's local time, to the second. */
export function localInput(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(
    d.getMinutes(),
  )}:${pad(d.getSeconds())}`;
}

/** A `datetime-local` value (local time) as an ISO moment; '' when it is not one. */
export function fromLocalInput(value: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** A moment to the second, in the browser's time zone. */
const moment = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

/** What the report shows, in words: for headings and the bar's status line. */
export function describeTimeTravel(tt: Pick<TimeTravel, 'asOf' | 'knownAt' | 'compare'>): string {
  const parts: string[] = [];
  if (tt.asOf) parts.push(`as of ${showDay(tt.asOf)}`);
  parts.push(tt.knownAt ? `as recorded at ${moment(tt.knownAt)}` : 'as recorded now');
  let text = `The books ${parts.join(', ')}`;
  if (tt.compare) text += `; marked: what changed since ${moment(tt.compare)}`;
  return `${text}.`;
}

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px dashed ${tokens.colorNeutralStroke1}`,
  },
  field: { flex: '1 1 170px', minWidth: 0, maxWidth: '240px' },
  // A moment to the second with its AM/PM needs about 230 px (a phone row has 340).
  momentField: { flex: '1 1 230px', minWidth: '230px', maxWidth: '280px' },
  moment: { width: '100%', minWidth: 0 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  toggleRow: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
});

function MomentField(props: { label: string; value: string; onChange(iso: string): void; hint?: string }) {
  const styles = useStyles();
  const id = useId();
  return (
    <Field label={{ children: props.label, htmlFor: id }} className={styles.momentField} hint={props.hint}>
      <Input
        id={id}
        className={styles.moment}
        type="datetime-local"
        step={1}
        value={localInput(props.value)}
        onChange={(_, d) => {
          const iso = fromLocalInput(d.value);
          if (iso || !d.value) props.onChange(iso);
        }}
      />
    </Field>
  );
}

/**
 * The time-travel bar: As of (a business date), As known at (a moment), Compare with (a moment
 * A), and Back to now. Every state is in the URL. `asOf: false` on a screen whose report has no
 * business-date view of its own.
 */
export function TimeTravelBar(props: { tt: TimeTravel; asOf?: boolean }) {
  const styles = useStyles();
  const { tt } = props;
  const asOfId = useId();
  const barId = useId();
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
          <Field label={{ children: 'As of', htmlFor: asOfId }} className={styles.field}>
            <DateInput
              id={asOfId}
              label="As of"
              placeholder="Today"
              value={tt.asOf}
              onChange={(day) => tt.set({ asOf: day })}
            />
          </Field>
        )}
        <MomentField label="As known at" value={tt.knownAt} onChange={(v) => tt.set({ knownAt: v })} />
        <MomentField label="Compare with" value={tt.compare} onChange={(v) => tt.set({ compare: v })} />
        <Button
          icon={<ArrowCounterclockwiseRegular />}
          disabled={!active}
          onClick={() => tt.set({ asOf: '', knownAt: '', compare: '' })}
        >
          Back to now
        </Button>
      </div>
    </section>
  );
}

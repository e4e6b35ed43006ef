import { CityTabs, ErrorAlert, errorText, useDebouncedValue } from '@bahi/ui';
import { Button, Field, Input, makeStyles, Select, tokens } from '@fluentui/react-components';
import { DismissRegular, SearchRegular } from '@fluentui/react-icons';
import { useEffect, useId, useRef, useState } from 'react';
import { DateInput } from './date-input.tsx';
import { EntityPicker } from './entity-picker.tsx';
import { type PartyKind, useCities } from './parties.ts';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalM,
  },
  grow: { flexGrow: 1, minWidth: '200px', maxWidth: '360px' },
  // Two dates side by side on a phone (366 px), at most 240 px each on a wide screen.
  date: { flex: '1 1 150px', minWidth: 0, maxWidth: '240px' },
  dateRow: { display: 'flex', alignItems: 'center', width: '100%' },
});

/** The filters above a list: wraps on a phone. */
export function FilterBar(props: { children: React.ReactNode }) {
  return <div className={useStyles().bar}>{props.children}</div>;
}

/**
 * A search box whose text reaches the list 500 ms after the last key (spec section 9); the
 * list's URL keeps it, and a URL change (Back) shows in the box.
 */
export function SearchInput(props: { value: string; onChange(value: string): void; label: string }) {
  const styles = useStyles();
  const [text, setText] = useState(props.value);
  const settled = useDebouncedValue(text);
  const sent = useRef(props.value);
  useEffect(() => {
    if (settled !== sent.current) {
      sent.current = settled;
      props.onChange(settled);
    }
  }, [settled, props.onChange]);
  useEffect(() => {
    if (props.value !== sent.current) {
      sent.current = props.value;
      setText(props.value);
    }
  }, [props.value]);
  return (
    <Field label={props.label} className={styles.grow}>
      <Input
        type="search"
        contentBefore={<SearchRegular />}
        value={text}
        onChange={(_, d) => setText(d.value)}
      />
    </Field>
  );
}

/** 'All Cities' or one city, from the one cached cities query. */
export function CityFilter(props: { value: string; onChange(cityId: string): void; label?: string }) {
  const cities = useCities();
  return (
    <Field
      label={props.label ?? 'City'}
      validationMessage={cities.isError ? 'Failed to load city filter options.' : undefined}
    >
      <Select value={props.value} onChange={(_, d) => props.onChange(d.value)}>
        <option value="">All Cities</option>
        {(cities.data ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/**
 * Balances as of a business date (empty: today). Beyond the spec: the API answers `asOf`, so
 * an auditor can open a master list as the books stood on a day; the URL keeps the date.
 */
export function AsOfInput(props: { value: string; onChange(day: string): void }) {
  return (
    <ClearableDate {...props} label="Balances as of" placeholder="Today" clearLabel="Show today's balances" />
  );
}

/**
 * A date filter of a list ('Start Date', 'From Date'): the day 'YYYY-MM-DD' or '' (no bound),
 * kept in the list's URL; a clear button while a day is set (transactions and reports lists).
 * `onEnter` hears Enter with the day typed (null when it is no date).
 */
export function DateFilter(props: {
  label: string;
  value: string;
  onChange(day: string): void;
  onEnter?(day: string | null): void;
}) {
  return (
    <ClearableDate
      {...props}
      placeholder="Any"
      clearLabel={`Clear ${props.label.toLowerCase()}`}
      className={useStyles().date}
    />
  );
}

/**
 * A date box with its label and a clear button. What is typed and is no date stays in the box
 * with its message and changes nothing: the list keeps its last day.
 */
function ClearableDate(props: {
  label: string;
  value: string;
  onChange(day: string): void;
  onEnter?(day: string | null): void;
  placeholder: string;
  clearLabel: string;
  className?: string;
}) {
  const id = useId();
  const styles = useStyles();
  const [problem, setProblem] = useState<string>();
  return (
    <Field
      label={{ children: props.label, htmlFor: id }}
      className={props.className}
      validationMessage={problem}
    >
      <span className={styles.dateRow}>
        <DateInput
          id={id}
          label={props.label}
          placeholder={props.placeholder}
          value={props.value}
          onChange={props.onChange}
          onProblem={setProblem}
          onEnter={props.onEnter}
        />
        {props.value ? (
          <Button
            appearance="subtle"
            icon={<DismissRegular />}
            aria-label={props.clearLabel}
            onClick={() => {
              setProblem(undefined);
              props.onChange('');
            }}
          />
        ) : null}
      </span>
    </Field>
  );
}

/**
 * A list filtered by one party ('From Collector'): chosen by typing, as in a form; '' is any.
 * `cityId` limits it to a city's parties (a report's collector filter).
 */
export function PartyFilter(props: {
  kind: PartyKind;
  label: string;
  value: string;
  onChange(id: string): void;
  cityId?: string;
}) {
  const id = useId();
  return (
    <Field label={{ children: props.label, htmlFor: id }}>
      <span style={{ display: 'flex', alignItems: 'center' }}>
        <EntityPicker
          id={id}
          kind={props.kind}
          cityId={props.cityId}
          placeholder="Any"
          value={props.value}
          onChange={(v) => props.onChange(v)}
        />
        {props.value ? (
          <Button
            appearance="subtle"
            icon={<DismissRegular />}
            aria-label={`Clear ${props.label.toLowerCase()}`}
            onClick={() => props.onChange('')}
          />
        ) : null}
      </span>
    </Field>
  );
}

/**
 * One tab per city from the one cached cities query (the transactions and reports screens):
 * 'All Cities' first where the screen offers it; the first city chosen once cities load.
 */
export function CityTabsFromQuery(props: {
  value: string;
  onChange(cityId: string): void;
  includeAll?: boolean;
}) {
  const cities = useCities();
  const first = cities.data?.[0]?.id;
  const { value, onChange, includeAll } = props;
  useEffect(() => {
    if (!includeAll && !value && first) onChange(first);
  }, [includeAll, value, first, onChange]);
  if (cities.isError) return <ErrorAlert text={errorText(cities.error, 'Failed to load cities list.')} />;
  return <CityTabs cities={cities.data ?? []} value={value} onChange={onChange} includeAll={includeAll} />;
}

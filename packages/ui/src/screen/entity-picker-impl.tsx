// The party picker's implementation, loaded with the first picker on screen (entity-picker.tsx):
// Fluent's Combobox does not weigh on a list's first screen.
import { useDebouncedValue } from '@bahi/ui';
import { Combobox, makeStyles, Option, Text, tokens } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { EntityPickerProps } from './entity-picker.tsx';
import { currentBalance, money, type Party, partyCurrency, partyOptionsQuery } from './parties.ts';

const useStyles = makeStyles({
  option: { display: 'flex', justifyContent: 'space-between', gap: tokens.spacingHorizontalL, width: '100%' },
  balance: {
    color: tokens.colorNeutralForeground3,
    whiteSpace: 'nowrap',
    fontVariantNumeric: 'tabular-nums',
  },
});

/**
 * A party chosen by typing: the server searches (so thousands of parties cost one short page),
 * arrows and Enter pick, and each option shows the party's current balance in its currency.
 */
export default function EntityPickerImpl(props: EntityPickerProps) {
  const styles = useStyles();
  const [text, setText] = useState(props.initialLabel ?? '');
  const [typing, setTyping] = useState(false);
  // The list's open state is the picker's: Enter on a closed list is the form's (move on or
  // save), never a reopening. Fluent opened it on that Enter while the form moved the focus on,
  // and the list then stayed open over the next fields (issue #25).
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(typing ? text : '', 250);
  const query = useQuery(partyOptionsQuery(props.kind, search.trim(), props.cityId));
  // Options of an earlier search are not offered while the typed one is on its way: Enter or a
  // click must choose from what matches the text on screen.
  const stale = query.isPlaceholderData || (typing && search !== text);
  const options = stale ? [] : (query.data?.data ?? []);
  const known = query.data?.data ?? [];
  const label = (p: Party) => props.labelFor?.(p) ?? p.name;
  // A value set or cleared from outside (a reset, a city change) shows as its name or nothing;
  // never while the user is typing a search (a new page of results must not wipe the text).
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the value, the page and typing
  useEffect(() => {
    if (typing) return;
    if (!props.value) {
      setText('');
      return;
    }
    const found = known.find((p) => p.id === props.value);
    if (found) setText(label(found));
  }, [props.value, query.data, typing]);
  return (
    <Combobox
      id={props.id}
      ref={props.inputRef}
      name={props.name}
      freeform
      disabled={props.disabled}
      aria-invalid={props.invalid || undefined}
      placeholder={props.placeholder ?? 'Type to search'}
      value={text}
      selectedOptions={props.value ? [props.value] : []}
      open={open}
      onOpenChange={(e, d) => {
        if (d.open && 'key' in e && e.key === 'Enter') return;
        setOpen(d.open);
      }}
      onInput={(e) => {
        setTyping(true);
        setText((e.target as HTMLInputElement).value);
      }}
      onOptionSelect={(_, d) => {
        setTyping(false);
        const party = options.find((p) => p.id === d.optionValue);
        setText(party ? label(party) : (d.optionText ?? ''));
        props.onChange(d.optionValue ?? '', party);
      }}
      onBlur={() => {
        // What was typed but not picked is not a choice: show the chosen party again.
        if (typing) {
          setTyping(false);
          const chosen = known.find((p) => p.id === props.value);
          setText(chosen ? label(chosen) : props.value ? text : '');
        }
        props.onBlur?.();
      }}
    >
      {options.map((p) => (
        <Option key={p.id} value={p.id} text={label(p)}>
          <span className={styles.option}>
            <span>{label(p)}</span>
            <Text size={200} className={styles.balance}>
              {money(currentBalance(p), partyCurrency(p, props.kind))}
            </Text>
          </span>
        </Option>
      ))}
      {options.length === 0 ? (
        <Option key="none" value="" text="" disabled>
          {stale || query.isFetching ? 'Searching…' : 'No matches'}
        </Option>
      ) : null}
    </Combobox>
  );
}

import { Button, Input, makeStyles, tokens } from '@fluentui/react-components';
import { CalendarRegular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { parseDay, showDay } from './date-text.ts';

const useDateStyles = makeStyles({
  hidden: { position: 'absolute', opacity: 0, width: '1px', height: '1px', pointerEvents: 'none', border: 0 },
  wrap: { position: 'relative', display: 'flex', gap: tokens.spacingHorizontalXS, minWidth: 0, flexGrow: 1 },
  input: { flexGrow: 1, minWidth: 0 },
  // The native input's own width (20 characters) would keep the field from narrowing on a phone.
  native: { minWidth: 0, width: '100%' },
});

/**
 * A business date: shown in the app's format ('24 Nov 2026'), typed as that or as 24/11/2026 or
 * 2026-11-24, or picked from the browser's calendar. The value is the day 'YYYY-MM-DD'.
 */
export function DateInput(props: {
  value: string;
  onChange(day: string): void;
  onBlur?(): void;
  label?: string;
  id?: string;
  disabled?: boolean;
  inputRef?: React.Ref<HTMLInputElement>;
  name?: string;
  invalid?: boolean;
  placeholder?: string;
}) {
  const styles = useDateStyles();
  const [text, setText] = useState(showDay(props.value));
  const [editing, setEditing] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!editing) setText(showDay(props.value));
  }, [props.value, editing]);
  const commit = () => {
    setEditing(false);
    const day = parseDay(text);
    if (day) {
      props.onChange(day);
      setText(showDay(day));
    } else if (!text.trim()) props.onChange('');
    else props.onChange(text.trim()); // left as typed: the schema says it is no date
    props.onBlur?.();
  };
  return (
    <span className={styles.wrap}>
      <Input
        className={styles.input}
        input={{ className: styles.native }}
        id={props.id}
        ref={props.inputRef}
        name={props.name}
        value={text}
        placeholder={props.placeholder ?? 'DD Mon YYYY'}
        autoComplete="off"
        disabled={props.disabled}
        aria-invalid={props.invalid || undefined}
        onFocus={() => setEditing(true)}
        onChange={(_, d) => setText(d.value)}
        onBlur={commit}
      />
      <Button
        appearance="subtle"
        icon={<CalendarRegular />}
        aria-label={props.label ? `Choose ${props.label.toLowerCase()} from a calendar` : 'Choose a date'}
        disabled={props.disabled}
        tabIndex={-1}
        onClick={() => picker.current?.showPicker?.()}
      />
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        className={styles.hidden}
        value={/^\d{4}-\d{2}-\d{2}$/.test(props.value) ? props.value : ''}
        onChange={(e) => {
          if (e.target.value) props.onChange(e.target.value);
        }}
      />
    </span>
  );
}

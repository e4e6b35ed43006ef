import {
  Button,
  Field,
  Input,
  makeStyles,
  Radio,
  RadioGroup,
  Select,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { CalendarRegular } from '@fluentui/react-icons';
import { useEffect, useId, useRef, useState } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { parseDay, showDay } from './date-text.ts';
import { acceptDecimal, cleanDecimal } from './decimal-text.ts';

/**
 * Form fields bound to the surrounding react-hook-form (FormProvider) by name: a label, the
 * field's message (the schema's or the server's, spec section 8), and the value as text.
 */
interface FieldBase {
  name: string;
  label: string;
  required?: boolean;
  hint?: string;
  disabled?: boolean;
}

function useBound(name: string) {
  const { control } = useFormContext();
  return useController({ name, control });
}

export function TextField(
  props: FieldBase & {
    type?: 'text' | 'email' | 'password' | 'tel';
    multiline?: boolean;
    autoComplete?: string;
  },
) {
  const { field, fieldState } = useBound(props.name);
  const common = {
    name: field.name,
    value: (field.value as string | null | undefined) ?? '',
    onBlur: field.onBlur,
    disabled: props.disabled,
  };
  return (
    <Field
      label={props.label}
      required={props.required}
      hint={props.hint}
      validationMessage={fieldState.error?.message}
    >
      {props.multiline ? (
        <Textarea
          {...common}
          ref={field.ref}
          onChange={(_, d) => field.onChange(d.value)}
          resize="vertical"
        />
      ) : (
        <Input
          {...common}
          ref={field.ref}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          onChange={(_, d) => field.onChange(d.value)}
        />
      )}
    </Field>
  );
}

/**
 * An exact decimal: amounts take 2 decimals, quantities and rates 4. What cannot be such a
 * number is not taken from the keyboard; the value is the text itself, never a JS number.
 */
export function DecimalField(
  props: FieldBase & {
    scale: number;
    allowNegative?: boolean;
    readOnly?: boolean;
    suffix?: React.JSX.Element | string;
  },
) {
  const { field, fieldState } = useBound(props.name);
  const value = field.value === null || field.value === undefined ? '' : String(field.value);
  return (
    <Field
      label={props.label}
      required={props.required}
      hint={props.hint}
      validationMessage={fieldState.error?.message}
    >
      <Input
        ref={field.ref}
        name={field.name}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        readOnly={props.readOnly}
        disabled={props.disabled}
        contentAfter={props.suffix}
        onBlur={field.onBlur}
        onChange={(_, d) => {
          const text = cleanDecimal(d.value);
          if (acceptDecimal(text, props.scale, props.allowNegative)) field.onChange(text);
        }}
      />
    </Field>
  );
}

const useDateStyles = makeStyles({
  hidden: { position: 'absolute', opacity: 0, width: '1px', height: '1px', pointerEvents: 'none', border: 0 },
  wrap: { position: 'relative', display: 'flex', gap: tokens.spacingHorizontalXS },
  input: { flexGrow: 1 },
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

export function DateField(props: FieldBase) {
  const { field, fieldState } = useBound(props.name);
  const id = useId();
  return (
    <Field
      label={{ children: props.label, htmlFor: id }}
      required={props.required}
      hint={props.hint}
      validationMessage={fieldState.error?.message}
    >
      <DateInput
        id={id}
        label={props.label}
        name={field.name}
        inputRef={field.ref}
        value={(field.value as string) ?? ''}
        disabled={props.disabled}
        invalid={!!fieldState.error}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </Field>
  );
}

export interface Choice {
  value: string;
  label: string;
}

export function SelectField(props: FieldBase & { choices: Choice[]; placeholder?: string }) {
  const { field, fieldState } = useBound(props.name);
  return (
    <Field
      label={props.label}
      required={props.required}
      hint={props.hint}
      validationMessage={fieldState.error?.message}
    >
      <Select
        ref={field.ref}
        name={field.name}
        value={field.value === undefined || field.value === null ? '' : String(field.value)}
        disabled={props.disabled}
        onBlur={field.onBlur}
        onChange={(_, d) => field.onChange(d.value)}
      >
        {props.placeholder !== undefined ? <option value="">{props.placeholder}</option> : null}
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

export function RadioField(props: FieldBase & { choices: Choice[]; onPicked?(value: string): void }) {
  const { field, fieldState } = useBound(props.name);
  return (
    <Field label={props.label} required={props.required} validationMessage={fieldState.error?.message}>
      <RadioGroup
        layout="horizontal"
        name={field.name}
        value={String(field.value ?? '')}
        disabled={props.disabled}
        onChange={(_, d) => {
          field.onChange(d.value);
          props.onPicked?.(d.value);
        }}
      >
        {props.choices.map((c) => (
          <Radio key={c.value} value={c.value} label={c.label} />
        ))}
      </RadioGroup>
    </Field>
  );
}

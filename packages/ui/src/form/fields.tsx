import { acceptDecimal, cleanDecimal, DateInput, dateProblem } from '@bahi/ui/screen';
import { Field, Input, Radio, RadioGroup, Select, Switch, Textarea } from '@fluentui/react-components';
import { useId } from 'react';
import { useController, useFormContext } from 'react-hook-form';

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

/**
 * A business date of a form. What is typed and is no date stays in the box and in the form (so
 * the schema refuses to submit), with its own message ('31/02/2026 is not a date: Feb 2026 has
 * 28 days.') in place of the schema's.
 */
export function DateField(props: FieldBase) {
  const { field, fieldState } = useBound(props.name);
  const id = useId();
  const value = (field.value as string | null | undefined) ?? '';
  const message = fieldState.error ? (dateProblem(value) ?? fieldState.error.message) : undefined;
  return (
    <Field
      label={{ children: props.label, htmlFor: id }}
      required={props.required}
      hint={props.hint}
      validationMessage={message}
    >
      <DateInput
        id={id}
        label={props.label}
        name={field.name}
        inputRef={field.ref}
        value={value}
        disabled={props.disabled}
        invalid={!!fieldState.error}
        onChange={field.onChange}
        onInvalid={field.onChange}
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

/** A yes/no field shown as a switch (Active, Required). */
export function SwitchField(props: { name: string; label: string; disabled?: boolean }) {
  const { field } = useBound(props.name);
  return (
    <Switch
      ref={field.ref}
      name={field.name}
      label={props.label}
      checked={!!field.value}
      disabled={props.disabled}
      onBlur={field.onBlur}
      onChange={(_, d) => field.onChange(d.checked)}
    />
  );
}

import { EntityPicker, type EntityPickerProps, type Party } from '@bahi/ui/screen';
import { Field } from '@fluentui/react-components';
import { useId } from 'react';
import { useController, useFormContext } from 'react-hook-form';

/** The picker bound to a form field by name. */
export function EntityField(
  props: Omit<EntityPickerProps, 'value' | 'onChange' | 'id' | 'name' | 'inputRef' | 'invalid'> & {
    name: string;
    label: string;
    required?: boolean;
    hint?: string;
    onPicked?(party: Party | undefined): void;
  },
) {
  const { control } = useFormContext();
  const { field, fieldState } = useController({ name: props.name, control });
  const id = useId();
  const { name, label, required, hint, onPicked, ...picker } = props;
  return (
    <Field
      label={{ children: label, htmlFor: id }}
      required={required}
      hint={hint}
      validationMessage={fieldState.error?.message}
    >
      <EntityPicker
        {...picker}
        id={id}
        name={name}
        inputRef={field.ref}
        invalid={!!fieldState.error}
        value={(field.value as string) ?? ''}
        onChange={(value, party) => {
          field.onChange(value);
          onPicked?.(party);
        }}
        onBlur={field.onBlur}
      />
    </Field>
  );
}

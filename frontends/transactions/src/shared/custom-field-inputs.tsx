import { DateField, SelectField, SwitchField, TextField, useFormContext } from '@bahi/ui/form';
import { type CustomFieldEntity, customFieldDefinitionsQuery, useQuery } from '@bahi/ui/screen';
import { Text } from '@fluentui/react-components';
import { useEffect } from 'react';
import type { CustomFieldValue } from './transaction-api.ts';

/**
 * The custom fields that apply to this kind of record, each by its type and required flag
 * (spec section 5), bound as `custom_fields.<definition id>`; the server checks them and its
 * refusal lands on the field.
 */
export function CustomFieldInputs(props: { entity: CustomFieldEntity }) {
  const definitions = useQuery(customFieldDefinitionsQuery());
  const applying = (definitions.data ?? []).filter((d) => d.entity_types.includes(props.entity));
  // A field left empty is sent as null (no value), never left out as undefined.
  const { getValues, setValue } = useFormContext();
  const ids = applying.map((d) => d.id).join(',');
  useEffect(() => {
    for (const id of ids ? ids.split(',') : []) {
      if (getValues(`custom_fields.${id}`) === undefined) setValue(`custom_fields.${id}`, null);
    }
  }, [ids, getValues, setValue]);
  if (definitions.isError) return <Text size={200}>Failed to load required data for the form.</Text>;
  return (
    <>
      {applying.map((d) => {
        const name = `custom_fields.${d.id}`;
        switch (d.type) {
          case 'BOOLEAN':
            return <SwitchField key={d.id} name={name} label={d.name} />;
          case 'DATE':
            return <DateField key={d.id} name={name} label={d.name} required={d.is_required} />;
          case 'SELECT':
            return (
              <SelectField
                key={d.id}
                name={name}
                label={d.name}
                required={d.is_required}
                placeholder=""
                choices={(d.options ?? []).map((o) => ({ value: o, label: o }))}
              />
            );
          default:
            return <TextField key={d.id} name={name} label={d.name} required={d.is_required} />;
        }
      })}
    </>
  );
}

/** Values as a row shows them ('No custom field data.' when none, spec section 2). */
export function CustomFieldValues(props: { values: CustomFieldValue[] }) {
  if (props.values.length === 0) return <Text size={200}>No custom field data.</Text>;
  return (
    <>
      {props.values.map((v) => (
        <Text key={v.id} block size={200}>
          <strong>{v.definition.name}:</strong>{' '}
          {v.value === true ? 'Yes' : v.value === false ? 'No' : String(v.value ?? '')}
        </Text>
      ))}
    </>
  );
}

/** A record's custom field values as the form starts with them (an edit). */
export const customFieldDefaults = (
  values: CustomFieldValue[] | undefined,
): Record<string, string | number | boolean | null> =>
  Object.fromEntries((values ?? []).map((v) => [v.custom_field_definition_id, v.value]));

/**
 * The custom fields of the next entry (Save and New): every field the last one had, empty (null).
 * An empty object left the fields on screen undefined, which the schema refuses ("expected
 * string, received undefined") on an optional field (issue #25).
 */
export const blankCustomFields = (
  values: Record<string, unknown> | undefined,
): Record<string, string | number | boolean | null> =>
  Object.fromEntries(Object.keys(values ?? {}).map((id) => [id, null]));

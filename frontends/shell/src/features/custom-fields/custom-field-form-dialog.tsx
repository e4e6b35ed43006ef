import { CUSTOM_FIELD_ENTITY_TYPES, CUSTOM_FIELD_TYPES, customFieldInput } from '@bahi/contracts';
import { api, FormDialog, useSnackbar } from '@bahi/ui';
import {
  FormProvider,
  SelectField,
  SwitchField,
  TextField,
  useController,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import { useMutation, useQueryClient } from '@bahi/ui/screen';
import {
  Button,
  Checkbox,
  Field,
  Input,
  makeStyles,
  Tag,
  TagGroup,
  Text,
  tokens,
} from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { type CustomField, TYPE_LABEL } from './api.ts';
import { addOption } from './options.ts';

const useStyles = makeStyles({
  optionRow: { display: 'flex', gap: tokens.spacingHorizontalS },
  grow: { flexGrow: 1 },
  checks: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalM },
  tags: { flexWrap: 'wrap', rowGap: tokens.spacingVerticalXS },
  fieldset: { border: 'none', margin: 0, padding: 0, minWidth: 0 },
  legend: { padding: 0, marginBottom: tokens.spacingVerticalXS },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** The options of a Dropdown Select: added with Enter or Add, only if new and not empty (spec section 5). */
function OptionsField() {
  const styles = useStyles();
  const { field, fieldState } = useController({ name: 'options' });
  const [option, setOption] = useState('');
  const options = (field.value as string[] | null) ?? [];
  const add = () => {
    const next = addOption(options, option);
    if (next !== options) {
      field.onChange(next);
      setOption('');
    }
  };
  return (
    <Field
      label="Options"
      hint="Press Enter or Add to add an option"
      validationMessage={fieldState.error?.message}
    >
      <div className={styles.optionRow}>
        <Input
          className={styles.grow}
          value={option}
          aria-label="New option"
          onChange={(_, d) => setOption(d.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              e.stopPropagation(); // Enter adds here; it does not move on or save
              add();
            }
          }}
        />
        <Button icon={<AddRegular />} onClick={add}>
          Add
        </Button>
      </div>
      {options.length ? (
        <TagGroup
          className={styles.tags}
          aria-label="Options"
          onDismiss={(_, d) => field.onChange(options.filter((o) => o !== d.value))}
        >
          {options.map((o) => (
            <Tag
              key={o}
              value={o}
              dismissible
              dismissIcon={{ 'aria-label': `Remove ${o}` }}
              data-testid="option-tag"
            >
              {o}
            </Tag>
          ))}
        </TagGroup>
      ) : null}
    </Field>
  );
}

/** Apply to Forms: at least one of the four (spec section 5). */
function EntityTypesField() {
  const styles = useStyles();
  const { field, fieldState } = useController({ name: 'entity_types' });
  const chosen = (field.value as string[]) ?? [];
  const error = fieldState.error?.message;
  // A fieldset, not a Field: Field hands its id and label to every checkbox inside.
  return (
    <fieldset className={styles.fieldset} aria-invalid={!!error}>
      <legend className={styles.legend}>
        Apply to Forms{' '}
        <span aria-hidden className={styles.error}>
          *
        </span>
      </legend>
      <div className={styles.checks}>
        {CUSTOM_FIELD_ENTITY_TYPES.map((t) => (
          <Checkbox
            key={t}
            label={t}
            checked={chosen.includes(t)}
            onChange={(_, d) => field.onChange(d.checked ? [...chosen, t] : chosen.filter((x) => x !== t))}
          />
        ))}
      </div>
      {error ? (
        <Text role="alert" size={200} className={styles.error}>
          {error}
        </Text>
      ) : null}
    </fieldset>
  );
}

/** New Custom Field / Edit Custom Field (spec sections 2, 3 and 5). */
export function CustomFieldFormDialog(props: { field: CustomField | null; onClose(): void }) {
  const { field } = props;
  const notify = useSnackbar();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: object) =>
      field ? api.put(`/masters/custom-fields/${field.id}`, body) : api.post('/masters/custom-fields', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'custom-fields'] }),
  });
  const form = useSchemaForm(customFieldInput, {
    name: field?.name ?? '',
    type: field?.type,
    is_required: field?.is_required ?? false,
    options: field?.options ?? [],
    entity_types: field?.entity_types ?? [],
  });
  const type = useWatch({ control: form.control, name: 'type' });
  const submit = form.submit(async (values) => {
    // Options only for SELECT (spec section 5): the schema already made them null otherwise.
    const { options, ...rest } = values;
    await save.mutateAsync(values.type === 'SELECT' ? { ...rest, options } : rest);
    notify(field ? 'Custom field updated successfully!' : 'Custom field created successfully!');
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={field ? 'Edit Custom Field' : 'Create Custom Field'}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <TextField name="name" label="Field Name" required />
        <SelectField
          name="type"
          label="Field Type"
          required
          placeholder="Choose a type"
          choices={CUSTOM_FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }))}
        />
        {type === 'SELECT' ? <OptionsField /> : null}
        <EntityTypesField />
        <SwitchField name="is_required" label="Required" />
      </FormDialog>
    </FormProvider>
  );
}

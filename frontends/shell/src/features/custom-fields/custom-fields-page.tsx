import {
  api,
  type Column,
  ConfirmDialog,
  DataTable,
  ErrorAlert,
  errorText,
  FormDialog,
  Page,
  useSnackbar,
} from '@bahi/ui';
import {
  Badge,
  Button,
  Checkbox,
  Field,
  Input,
  makeStyles,
  Select,
  Switch,
  Tag,
  TagGroup,
  Text,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { type KeyboardEvent, useCallback, useEffect, useState } from 'react';
import { addOption } from './options.ts';

export const FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'BOOLEAN', 'SELECT'] as const;
export const ENTITY_TYPES = ['Purchase', 'Sale', 'PurchaseReturn', 'SaleReturn'] as const;
type FieldType = (typeof FIELD_TYPES)[number];
type EntityType = (typeof ENTITY_TYPES)[number];

export interface CustomField {
  id: string;
  name: string;
  type: FieldType;
  is_required: boolean;
  options: string[] | null;
  entity_types: EntityType[];
}
interface Form {
  name: string;
  type: FieldType | '';
  is_required: boolean;
  options: string[];
  entity_types: EntityType[];
}
const EMPTY: Form = { name: '', type: '', is_required: false, options: [], entity_types: [] };

const useStyles = makeStyles({
  optionRow: { display: 'flex', gap: tokens.spacingHorizontalS },
  grow: { flexGrow: 1 },
  checks: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalM },
  tags: { flexWrap: 'wrap', rowGap: tokens.spacingVerticalXS },
  fieldset: { border: 'none', margin: 0, padding: 0, minWidth: 0 },
  legend: { padding: 0, marginBottom: tokens.spacingVerticalXS },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** Transaction Custom Fields (spec sections 2 and 5; Admin and Manager). */
export function CustomFieldsPage() {
  const styles = useStyles();
  const notify = useSnackbar();
  const [rows, setRows] = useState<CustomField[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string | null; form: Form } | null>(null);
  const [option, setOption] = useState('');
  const [touched, setTouched] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<CustomField | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await api.get<CustomField[]>('/masters/custom-fields'));
      setError(null);
    } catch (e) {
      setRows([]);
      setError(errorText(e, 'Failed to fetch custom fields.'));
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const open = (c: CustomField | null) => {
    setTouched(false);
    setSaveError(null);
    setOption('');
    setEditing(
      c
        ? {
            id: c.id,
            form: {
              name: c.name,
              type: c.type,
              is_required: c.is_required,
              options: c.options ?? [],
              entity_types: c.entity_types,
            },
          }
        : { id: null, form: EMPTY },
    );
  };
  const set = <K extends keyof Form>(key: K, value: Form[K]) =>
    setEditing((e) => (e ? { ...e, form: { ...e.form, [key]: value } } : e));
  const add = () => {
    if (!editing) return;
    const next = addOption(editing.form.options, option);
    if (next !== editing.form.options) {
      set('options', next);
      setOption('');
    }
  };
  const onOptionKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      add();
    }
  };

  const save = async () => {
    if (!editing) return;
    setTouched(true);
    const f = editing.form;
    if (!f.name.trim() || !f.type || f.entity_types.length === 0) return;
    const body = {
      name: f.name.trim(),
      type: f.type,
      is_required: f.is_required,
      entity_types: f.entity_types,
      // Options only for SELECT (spec section 5).
      ...(f.type === 'SELECT' ? { options: f.options } : {}),
    };
    setBusy(true);
    setSaveError(null);
    try {
      if (editing.id) await api.put(`/masters/custom-fields/${editing.id}`, body);
      else await api.post('/masters/custom-fields', body);
      notify(editing.id ? 'Custom field updated successfully!' : 'Custom field created successfully!');
      setEditing(null);
      await load();
    } catch (e) {
      setSaveError(errorText(e, 'An unexpected error occurred.'));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`/masters/custom-fields/${deleting.id}`);
      notify('Custom field deleted successfully!');
      await load();
    } catch (e) {
      setError(errorText(e, 'Failed to delete custom field.'));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  const columns: Column<CustomField>[] = [
    { key: 'name', header: 'Field Name', render: (c) => c.name },
    { key: 'type', header: 'Field Type', render: (c) => c.type },
    { key: 'required', header: 'Required', render: (c) => (c.is_required ? 'Yes' : 'No') },
    { key: 'options', header: 'Options', render: (c) => (c.options?.length ? c.options.join(', ') : '–') },
    {
      key: 'forms',
      header: 'Applies To',
      render: (c) =>
        c.entity_types.map((t) => (
          <Badge key={t} appearance="tint" style={{ marginRight: 4 }}>
            {t}
          </Badge>
        )),
    },
    {
      key: 'actions',
      header: 'Actions',
      width: '100px',
      render: (c) => (
        <>
          <Tooltip content={`Edit ${c.name}`} relationship="label">
            <Button appearance="subtle" icon={<EditRegular />} onClick={() => open(c)} />
          </Tooltip>
          <Tooltip content={`Delete ${c.name}`} relationship="label">
            <Button appearance="subtle" icon={<DeleteRegular />} onClick={() => setDeleting(c)} />
          </Tooltip>
        </>
      ),
    },
  ];

  const f = editing?.form ?? EMPTY;
  return (
    <Page
      title="Transaction Custom Fields"
      actions={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => open(null)}>
          New Custom Field
        </Button>
      }
    >
      <ErrorAlert text={error} />
      <DataTable
        label="Custom fields"
        columns={columns}
        rows={rows}
        rowKey={(c) => c.id}
        loading={loading}
        emptyText="No custom fields defined yet."
      />
      <FormDialog
        open={!!editing}
        title={editing?.id ? 'Edit Custom Field' : 'Add Custom Field'}
        busy={busy}
        error={saveError}
        onClose={() => setEditing(null)}
        onSubmit={() => void save()}
      >
        <Field
          label="Field Name"
          required
          validationMessage={touched && !f.name.trim() ? 'Field Name is required' : undefined}
        >
          <Input value={f.name} onChange={(_, d) => set('name', d.value)} />
        </Field>
        <Field
          label="Field Type"
          required
          validationMessage={touched && !f.type ? 'Field Type is required' : undefined}
        >
          <Select value={f.type} onChange={(_, d) => set('type', d.value as FieldType)}>
            <option value="" disabled>
              Choose a type
            </option>
            {FIELD_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </Select>
        </Field>
        {f.type === 'SELECT' ? (
          <Field label="Options" hint="Press Enter or Add to add an option">
            <div className={styles.optionRow}>
              <Input
                className={styles.grow}
                value={option}
                onChange={(_, d) => setOption(d.value)}
                onKeyDown={onOptionKey}
                aria-label="New option"
              />
              <Button icon={<AddRegular />} onClick={add}>
                Add
              </Button>
            </div>
            {f.options.length ? (
              <TagGroup
                className={styles.tags}
                aria-label="Options"
                onDismiss={(_, d) =>
                  set(
                    'options',
                    f.options.filter((o) => o !== d.value),
                  )
                }
              >
                {f.options.map((o) => (
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
        ) : null}
        {/* A fieldset, not a Field: Field hands its id and label to every checkbox inside. */}
        <fieldset className={styles.fieldset} aria-invalid={touched && f.entity_types.length === 0}>
          <legend className={styles.legend}>
            Apply to Forms{' '}
            <span aria-hidden className={styles.error}>
              *
            </span>
          </legend>
          <div className={styles.checks}>
            {ENTITY_TYPES.map((t) => (
              <Checkbox
                key={t}
                label={t}
                checked={f.entity_types.includes(t)}
                onChange={(_, d) =>
                  set(
                    'entity_types',
                    d.checked ? [...f.entity_types, t] : f.entity_types.filter((x) => x !== t),
                  )
                }
              />
            ))}
          </div>
          {touched && f.entity_types.length === 0 ? (
            <Text role="alert" size={200} className={styles.error}>
              Choose at least one form
            </Text>
          ) : null}
        </fieldset>
        <Switch label="Required" checked={f.is_required} onChange={(_, d) => set('is_required', d.checked)} />
      </FormDialog>
      <ConfirmDialog
        open={!!deleting}
        title="Delete Custom Field?"
        message={`Are you sure you want to delete the custom field "${deleting?.name ?? ''}"?`}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </Page>
  );
}

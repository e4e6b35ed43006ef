import { FormDialog, useSnackbar } from '@bahi/ui';
import {
  FormProvider,
  PreviewPanel,
  type SchemaForm,
  usePreview,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import { isoDay, useProducts } from '@bahi/ui/screen';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { blankCustomFields, customFieldDefaults } from './custom-field-inputs.tsx';
import { RECORDS, type RecordKind } from './records.ts';
import { type CustomFieldValue, save, useTransactionWrite } from './transaction-api.ts';

/** A record's request schema (purchaseInput or saleInput from @bahi/contracts). */
type RecordSchema = Parameters<typeof useSchemaForm>[0];
type RecordForm<S extends RecordSchema> = ReturnType<typeof useSchemaForm<S>>;

/** What a purchase and a sale row have alike, that their forms start from. */
interface RecordValues {
  product_id: string;
  godown_id: string | null;
  rate: string;
  quantity: string;
  customFieldValues: CustomFieldValue[];
  adjusts: { id: string } | null;
}

/**
 * The fields a purchase and a sale have alike, as the form starts: from the record edited or
 * duplicated (`from`, null for a new one); `adjusts` the record of the closed period a new
 * entry adjusts (an edit keeps its own).
 */
export const recordDefaults = (
  edited: RecordValues | null,
  from: RecordValues | null,
  adjusts: { id: string } | undefined,
) => ({
  product_id: from?.product_id ?? '',
  godown_id: from?.godown_id ?? '',
  rate: from?.rate ?? '',
  quantity: from?.quantity ?? '',
  custom_fields: customFieldDefaults(from?.customFieldValues),
  adjusts: edited ? (edited.adjusts?.id ?? null) : (adjusts?.id ?? null),
});

/** Save and New: what the next entry starts empty (the custom fields the last one had, blank). */
export const blankRecord = (customFields: Record<string, unknown> | undefined) => ({
  rate: '',
  quantity: '',
  custom_fields: blankCustomFields(customFields),
  adjusts: null,
});

/**
 * What New/Edit Purchase and New/Edit Sale do alike (spec sections 2 and 5, issue #14): the form
 * over the server's schema, the request with the business date as a full ISO timestamp, the
 * server's preview of what Save would post, Save (closes) and Save and New (`next` starts the
 * next entry from what the saved one keeps), each with its snackbar.
 */
export function useRecordForm<S extends RecordSchema>(props: {
  kind: RecordKind;
  schema: S;
  /** The record edited; null for a new one. */
  id: string | null;
  defaults: Parameters<typeof useSchemaForm<S>>[1];
  next(saved: z.output<S>, form: RecordForm<S>): void;
  onClose(): void;
}) {
  const { kind, id } = props;
  const { path, dateField } = RECORDS[kind];
  const notify = useSnackbar();
  useProducts(); // asked for with the dialog's opening, as the cities are, not once the fields render
  const write = useTransactionWrite(save(path, id));
  const form = useSchemaForm(props.schema, props.defaults);
  // The request as sent: the form's values with the date as a full ISO timestamp.
  const toBody = (v: z.output<S>) => {
    const values = v as Record<string, unknown>;
    return { ...values, [dateField]: isoDay(String(values[dateField] ?? '')) };
  };
  // What the save would post, from the server's own decider, before Save is pressed.
  const preview = usePreview(
    id ? 'PUT' : 'POST',
    id ? `${path}/${id}` : path,
    props.schema,
    useWatch({ control: form.control }),
    toBody,
  );
  const submit = form.submit(async (v) => {
    await write.mutateAsync(toBody(v));
    notify(id ? `${kind} updated successfully!` : `${kind} created successfully!`);
    props.onClose();
  });
  const submitAndNew = form.submit(async (v) => {
    await write.mutateAsync(toBody(v));
    notify(`${kind} created successfully!`);
    // The same form: TypeScript cannot relate react-hook-form's types over a schema not yet known.
    props.next(v, form as RecordForm<S>);
  });
  return { form, preview, submit, submitAndNew, editing: !!id, kind, onClose: props.onClose };
}

/** The dialog of a purchase or a sale: its fields, then the preview; Save and New on a new one only. */
export function RecordFormDialog<In extends Record<string, unknown>, Out>(props: {
  record: {
    form: SchemaForm<In, Out>;
    preview: ReturnType<typeof usePreview>;
    submit(): Promise<boolean>;
    submitAndNew(): Promise<boolean>;
    editing: boolean;
    kind: string;
    onClose(): void;
  };
  children: ReactNode;
}) {
  const { form, preview, submit, submitAndNew, editing, kind, onClose } = props.record;
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={editing ? `Edit ${kind}` : `New ${kind}`}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={onClose}
        onSubmit={() => void submit()}
        onSubmitAndNew={editing ? undefined : () => void submitAndNew()}
      >
        {props.children}
        <PreviewPanel preview={preview} />
      </FormDialog>
    </FormProvider>
  );
}

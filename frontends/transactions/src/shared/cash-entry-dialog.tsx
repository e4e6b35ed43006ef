import { FormDialog, useSnackbar } from '@bahi/ui';
import {
  DateField,
  DecimalField,
  EntityField,
  FormProvider,
  PreviewPanel,
  RadioField,
  TextField,
  usePreview,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import { type City, isoDay, today, useMoneyPost } from '@bahi/ui/screen';
import { Text } from '@fluentui/react-components';
import type { CashEntryKind } from './cash-entries.ts';

/** The request schema the server validates with (expenseInput or incomeInput from @bahi/contracts). */
export type CashEntrySchema = Parameters<typeof useSchemaForm>[0];

/**
 * New Expense and New Income (spec sections 2, 3 and 5): in the tab's city; Category, Amount and
 * Paid From / Received By required; the cash side is a collector of that city (its currency) or
 * a godown (INR); changing the side clears the choice.
 */
export function CashEntryDialog<Row>(props: {
  kind: CashEntryKind<Row>;
  schema: CashEntrySchema;
  city: City;
  onClose(): void;
  now?: Date;
}) {
  const { kind, city } = props;
  const f = kind.fields;
  const notify = useSnackbar();
  const post = useMoneyPost(`/transactions/${kind.path}`);
  const form = useSchemaForm(props.schema, {
    city_id: city.id,
    [f.date]: today(props.now),
    category: '',
    amount: '',
    [f.type]: 'Collector',
    [f.id]: '',
    remarks: '',
  });
  const side = useWatch({ control: form.control, name: f.type }) as 'Collector' | 'Godown';
  // What the save would post, from the server's own decider, before Save is pressed.
  const preview = usePreview(
    'POST',
    `/transactions/${kind.path}`,
    props.schema,
    useWatch({ control: form.control }),
    (v) => {
      const values = v as Record<string, string>;
      return { ...values, [f.date]: isoDay(values[f.date] ?? '') };
    },
  );
  const submit = form.submit(
    async (v) => {
      const values = v as Record<string, string>;
      await post.mutateAsync({ ...values, [f.date]: isoDay(values[f.date] ?? '') });
      notify(`${kind.kind} recorded successfully!`);
      props.onClose();
    },
    { aliases: { [f.type]: f.id } },
  );
  const label = kind.partyLabel;
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={`New ${kind.kind}`}
        submitLabel="Save"
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <Text size={200}>
          {city.name} ({city.currency_name})
        </Text>
        <DateField name={f.date} label={`${kind.kind} Date`} required />
        <TextField name="category" label="Category" required />
        <RadioField
          name={f.type}
          label={label}
          choices={[
            { value: 'Collector', label: `Collector (${city.currency_name})` },
            { value: 'Godown', label: 'Godown (INR)' },
          ]}
          onPicked={() => {
            form.setValue(f.id, '');
            form.clearErrors(f.id);
          }}
        />
        {side === 'Godown' ? (
          <EntityField key="godown" kind="Godown" name={f.id} label={`${label} (Godown)`} required />
        ) : (
          <EntityField
            key="collector"
            kind="Collector"
            name={f.id}
            label={`${label} (Collector)`}
            required
            cityId={city.id}
          />
        )}
        <DecimalField
          name="amount"
          label="Amount"
          required
          scale={2}
          suffix={side === 'Godown' ? 'INR' : city.currency_name}
        />
        <TextField name="remarks" label="Remarks" multiline />
        <PreviewPanel preview={preview} />
      </FormDialog>
    </FormProvider>
  );
}

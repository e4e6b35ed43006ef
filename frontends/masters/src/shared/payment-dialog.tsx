import { paymentInput } from '@bahi/contracts';
import { FormDialog, useSnackbar } from '@bahi/ui';
import {
  DateField,
  DecimalField,
  EntityField,
  FormProvider,
  RadioField,
  TextField,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import { isoDay, type Party, today, useMoneyPost } from '@bahi/ui/screen';
import { Text } from '@fluentui/react-components';

/** The mode a payment starts in (spec section 4): INR when the party's city keeps INR. */
export const defaultPaymentMode = (party: Pick<Party, 'city'>): 'INR' | 'Currency' =>
  party.city?.currency_name === 'INR' ? 'INR' : 'Currency';

/**
 * Pay (a funder) and Receive (from an agent), spec sections 4 and 5: Currency mode through a
 * collector of the party's city, INR mode through a godown; switching mode clears both; the
 * amount is required and above 0, in the handler's currency.
 */
export function PaymentDialog(props: { kind: 'Funder' | 'Agent'; party: Party; onClose(): void }) {
  const { party, kind } = props;
  const notify = useSnackbar();
  const post = useMoneyPost('/transactions/payments');
  const form = useSchemaForm(paymentInput, {
    related_entity_type: kind,
    related_entity_id: party.id,
    payment_date: today(),
    amount: '',
    payment_mode: defaultPaymentMode(party),
    collector_id: '',
    godown_id: '',
    reference: '',
  });
  const mode = useWatch({ control: form.control, name: 'payment_mode' });
  const currency = mode === 'INR' ? 'INR' : (party.city?.currency_name ?? '');
  const submit = form.submit(async (v) => {
    await post.mutateAsync({ ...v, payment_date: isoDay(v.payment_date) });
    notify(
      kind === 'Funder'
        ? `Payment to ${party.name} recorded successfully!`
        : `Receipt from ${party.name} recorded successfully!`,
    );
    props.onClose();
  });
  const verb = kind === 'Funder' ? 'Pay' : 'Receive';
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={kind === 'Funder' ? `Pay ${party.name}` : `Receive from ${party.name}`}
        submitLabel={verb}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <Text size={200}>
          {kind} of {party.city?.name ?? 'no city'} ({party.city?.currency_name ?? 'INR'})
        </Text>
        <DateField name="payment_date" label="Payment Date" required />
        <RadioField
          name="payment_mode"
          label="Payment Mode"
          choices={[
            { value: 'Currency', label: `Currency (${party.city?.currency_name ?? ''})` },
            { value: 'INR', label: 'INR' },
          ]}
          onPicked={() => {
            form.setValue('collector_id', '');
            form.setValue('godown_id', '');
            form.clearErrors(['collector_id', 'godown_id']);
          }}
        />
        {mode === 'INR' ? (
          <EntityField key="godown" kind="Godown" name="godown_id" label="Godown" required />
        ) : (
          <EntityField
            key="collector"
            kind="Collector"
            name="collector_id"
            label="Collector"
            required
            cityId={party.city_id ?? undefined}
          />
        )}
        <DecimalField name="amount" label="Amount" required scale={2} suffix={currency} />
        <TextField name="reference" label="Reference" />
      </FormDialog>
    </FormProvider>
  );
}

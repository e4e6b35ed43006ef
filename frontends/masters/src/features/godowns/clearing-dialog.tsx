import { clearingPayoutInput } from '@bahi/contracts';
import { FormDialog, useSnackbar } from '@bahi/ui';
import {
  DateField,
  DecimalField,
  EntityField,
  FormProvider,
  TextField,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import { isoDay, isPositiveDecimal, type Party, today, useMoneyPost } from '@bahi/ui/screen';
import { Text } from '@fluentui/react-components';

/**
 * Pay Clearing (spec section 5): the clearing charges a godown owes, paid by a godown; the
 * amount starts at the clearing balance; confirm is disabled without a paying godown or at 0.
 */
export function ClearingDialog(props: { godown: Party; onClose(): void }) {
  const { godown } = props;
  const notify = useSnackbar();
  const post = useMoneyPost('/transactions/clearing-payouts');
  const form = useSchemaForm(clearingPayoutInput, {
    payout_date: today(),
    godown_id: godown.id,
    payer_entity_type: 'Godown',
    payer_entity_id: '',
    amount: godown.clearing_balance ?? '0.00',
    remarks: '',
  });
  const [payer, amount] = useWatch({ control: form.control, name: ['payer_entity_id', 'amount'] });
  const submit = form.submit(async (v) => {
    await post.mutateAsync({ ...v, payout_date: isoDay(v.payout_date) });
    notify(`Clearing of ${godown.name} paid successfully!`);
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={`Pay Clearing: ${godown.name}`}
        submitLabel="Pay Clearing"
        busy={form.formState.isSubmitting}
        error={form.alert}
        submitDisabled={!payer || !isPositiveDecimal(String(amount ?? ''))}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <Text size={200}>Clearing balance: {godown.clearing_balance ?? '0.00'} INR</Text>
        <DateField name="payout_date" label="Payout Date" required />
        <EntityField kind="Godown" name="payer_entity_id" label="Paying Godown" required />
        <DecimalField name="amount" label="Amount" required scale={2} suffix="INR" />
        <TextField name="remarks" label="Remarks" multiline />
      </FormDialog>
    </FormProvider>
  );
}

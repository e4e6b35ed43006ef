import { transferInput } from '@bahi/contracts';
import { FormDialog, formatAmount, useSnackbar } from '@bahi/ui';
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
import { isoDay, type Party, today, useCities, useMoneyPost } from '@bahi/ui/screen';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { autoRate, estimatedReceived } from './transfer-rate.ts';

const useStyles = makeStyles({
  estimate: {
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    fontVariantNumeric: 'tabular-nums',
  },
});

/**
 * New Transfer (spec sections 3 and 5): from one collector to another, in any cities. Once both
 * are chosen the rate is set (1.0000 within a city, else sender city rate / receiver city rate,
 * with '*'); the estimated amount received follows the amounts, charge, rate and operation.
 */
export function TransferDialog(props: { onClose(): void; now?: Date }) {
  const styles = useStyles();
  const notify = useSnackbar();
  const post = useMoneyPost('/transactions/transfers');
  const cities = useCities();
  const [from, setFrom] = useState<Party | undefined>();
  const [to, setTo] = useState<Party | undefined>();
  const form = useSchemaForm(transferInput, {
    transfer_date: today(props.now),
    from_collector_id: '',
    to_collector_id: '',
    sent_amount: '',
    transfer_charge: '0',
    operation: '*',
    rate: '1.0000',
    remarks: '',
  });
  const [sent, charge, rate, operation] = useWatch({
    control: form.control,
    name: ['sent_amount', 'transfer_charge', 'rate', 'operation'],
  });
  const fromCity = cities.data?.find((c) => c.id === from?.city_id);
  const toCity = cities.data?.find((c) => c.id === to?.city_id);
  // Set when the pair of collectors changes (or the cities arrive), not on every render: a rate
  // typed afterwards stays.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pair of collectors and the cities' arrival decide
  useEffect(() => {
    const auto = autoRate(fromCity, toCity);
    if (auto === null) return;
    form.setValue('rate', auto, { shouldValidate: form.formState.isSubmitted });
    form.setValue('operation', '*');
  }, [from?.id, to?.id, !!fromCity, !!toCity]);
  const sentCurrency = from?.city?.currency_name ?? '';
  const receivedCurrency = to?.city?.currency_name ?? '';
  const estimate = estimatedReceived(
    String(sent ?? ''),
    String(charge ?? ''),
    String(rate ?? ''),
    operation === '/' ? '/' : '*',
  );
  // What the save would post, from the server's own decider, before Save is pressed.
  const preview = usePreview(
    'POST',
    '/transactions/transfers',
    transferInput,
    useWatch({ control: form.control }),
    (v) => ({ ...v, transfer_date: isoDay(v.transfer_date) }),
  );
  const submit = form.submit(async (v) => {
    await post.mutateAsync({ ...v, transfer_date: isoDay(v.transfer_date) });
    notify('Transfer recorded successfully!');
    props.onClose();
  });
  const rateHint =
    fromCity && toCity && fromCity.id !== toCity.id
      ? `${fromCity.name} ${fromCity.rate} ÷ ${toCity.name} ${toCity.rate}`
      : fromCity && toCity
        ? 'Both collectors are in the same city'
        : undefined;
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title="New Transfer"
        submitLabel="Save"
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <DateField name="transfer_date" label="Transfer Date" required />
        <EntityField
          kind="Collector"
          name="from_collector_id"
          label="From Collector"
          required
          onPicked={setFrom}
        />
        <EntityField kind="Collector" name="to_collector_id" label="To Collector" required onPicked={setTo} />
        <DecimalField name="sent_amount" label="Amount to Send" required scale={2} suffix={sentCurrency} />
        <DecimalField name="transfer_charge" label="Transfer Charge" scale={2} suffix={sentCurrency} />
        <RadioField
          name="operation"
          label="Operation"
          choices={[
            { value: '*', label: 'Multiply (×)' },
            { value: '/', label: 'Divide (÷)' },
          ]}
        />
        <DecimalField name="rate" label="Rate" required scale={4} hint={rateHint} />
        {estimate !== null ? (
          <Text className={styles.estimate} role="status">
            Estimated amount received: {formatAmount(estimate)} {receivedCurrency}
          </Text>
        ) : null}
        <TextField name="remarks" label="Remarks" multiline />
        <PreviewPanel preview={preview} />
      </FormDialog>
    </FormProvider>
  );
}

import { salaryPaymentInput } from '@bahi/contracts';
import { MONTH_NAMES } from '@bahi/contracts/months';
import { ErrorAlert, FormDialog, useSnackbar } from '@bahi/ui';
import {
  DateField,
  DecimalField,
  EntityField,
  FormProvider,
  RadioField,
  SelectField,
  TextField,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import {
  compareDecimal,
  isoDay,
  isPositiveDecimal,
  type Party,
  subtractDecimal,
  today,
  useMoneyPost,
  useQuery,
} from '@bahi/ui/screen';
import { useEffect } from 'react';
import { paidForMonthQuery } from './api.ts';

export const MONTHS = MONTH_NAMES;

/** Spec section 9: the current year and the 4 before it. */
export const salaryYears = (now: Date = new Date()) =>
  Array.from({ length: 5 }, (_, i) => String(now.getFullYear() - i));

/** max(0, salary - paid): what a Full payment pays (spec section 4). */
export function salaryLeft(salary: string | null | undefined, paid: string): string {
  const left = subtractDecimal(salary ?? '0', paid, 2);
  return compareDecimal(left, '0') > 0 ? left : '0.00';
}

export const SALARY_PAID_FAILED = 'Could not fetch previously paid amount for this month.';

/**
 * Pay Salary (spec sections 4 and 5): Full pays what is left of the month's salary (read-only),
 * Advance an amount typed; Currency is paid by a collector of the city (the one paid is 'Self'),
 * INR by a godown; confirm is disabled at 0 or less.
 */
export function SalaryDialog(props: { collector: Party; onClose(): void; now?: Date }) {
  const { collector } = props;
  const now = props.now ?? new Date();
  const notify = useSnackbar();
  const post = useMoneyPost('/transactions/salary-payments');
  const form = useSchemaForm(salaryPaymentInput, {
    collector_id: collector.id,
    month: String(now.getMonth() + 1),
    year: String(now.getFullYear()),
    payment_type: 'Full',
    payment_mode: 'Currency',
    amount: '',
    category: `Salary - ${collector.name}`,
    paid_from_entity_type: 'Collector',
    paid_from_entity_id: '',
    handler_entity_id: '',
    payment_date: today(now),
    remarks: '',
  });
  const [month, year, type, mode, amount, payer] = useWatch({
    control: form.control,
    name: ['month', 'year', 'payment_type', 'payment_mode', 'amount', 'paid_from_entity_id'],
  });
  const paid = useQuery(paidForMonthQuery(collector.id, String(month), String(year)));
  const left = paid.data ? salaryLeft(collector.salary_per_month, paid.data.totalPaid) : undefined;
  useEffect(() => {
    if (type === 'Full') form.setValue('amount', left ?? '', { shouldValidate: false });
  }, [type, left, form]);
  const currency = mode === 'INR' ? 'INR' : (collector.city?.currency_name ?? '');
  const submit = form.submit(
    async (v) => {
      await post.mutateAsync({ ...v, payment_date: v.payment_date ? isoDay(v.payment_date) : undefined });
      notify(`Salary of ${collector.name} paid successfully!`);
      props.onClose();
    },
    { aliases: { paid_from_entity_type: 'paid_from_entity_id' } },
  );
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={`Pay Salary: ${collector.name}`}
        submitLabel="Pay Salary"
        busy={form.formState.isSubmitting}
        error={form.alert}
        submitDisabled={!isPositiveDecimal(String(amount ?? '')) || !payer}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <ErrorAlert text={paid.isError ? SALARY_PAID_FAILED : null} />
        <SelectField
          name="month"
          label="Month"
          required
          choices={MONTHS.map((m, i) => ({ value: String(i + 1), label: m }))}
        />
        <SelectField
          name="year"
          label="Year"
          required
          choices={salaryYears(now).map((y) => ({ value: y, label: y }))}
        />
        <RadioField
          name="payment_type"
          label="Payment Type"
          choices={[
            { value: 'Full', label: 'Full' },
            { value: 'Advance', label: 'Advance' },
          ]}
          onPicked={(v) => {
            if (v === 'Advance') form.setValue('amount', '');
            form.clearErrors('amount');
          }}
        />
        <RadioField
          name="payment_mode"
          label="Payment Mode"
          choices={[
            { value: 'Currency', label: `Currency (${collector.city?.currency_name ?? ''})` },
            { value: 'INR', label: 'INR' },
          ]}
          onPicked={(v) => {
            form.setValue('paid_from_entity_type', v === 'INR' ? 'Godown' : 'Collector');
            form.setValue('paid_from_entity_id', '');
            form.clearErrors('paid_from_entity_id');
          }}
        />
        {mode === 'INR' ? (
          <EntityField
            key="godown"
            kind="Godown"
            name="paid_from_entity_id"
            label="Paid From (Godown)"
            required
          />
        ) : (
          <EntityField
            key="collector"
            kind="Collector"
            name="paid_from_entity_id"
            label="Paid From (Collector)"
            required
            cityId={collector.city_id ?? undefined}
            labelFor={(p) => (p.id === collector.id ? 'Self' : p.name)}
          />
        )}
        <DecimalField
          name="amount"
          label="Amount"
          required
          scale={2}
          readOnly={type === 'Full'}
          suffix={currency}
          hint={
            type === 'Full'
              ? left === undefined
                ? 'Looking up what is paid for this month…'
                : `What is left of ${collector.salary_per_month ?? '0.00'} for the month`
              : undefined
          }
        />
        <DateField name="payment_date" label="Payment Date" />
        <TextField name="category" label="Category" />
        <TextField name="remarks" label="Remarks" multiline />
      </FormDialog>
    </FormProvider>
  );
}

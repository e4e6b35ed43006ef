import { saleInput } from '@bahi/contracts';
import { FormDialog, formatAmount, formatRate, useSnackbar } from '@bahi/ui';
import {
  DateField,
  DecimalField,
  EntityField,
  FormProvider,
  SelectField,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import { isoDay, today, useCities, useProducts, useQuery } from '@bahi/ui/screen';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { CustomFieldInputs, customFieldDefaults } from '../../shared/custom-field-inputs.tsx';
import { save, useTransactionWrite } from '../../shared/transaction-api.ts';
import { averageRateQuery, type Sale } from './api.ts';
import { profitPreview } from './profit.ts';

const useStyles = makeStyles({
  preview: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  loss: { color: tokens.colorPaletteRedForeground1 },
  gain: { color: tokens.colorPaletteGreenForeground1 },
});

/**
 * New Sale / Edit Sale (spec sections 2 and 5): an agent of the tab's city, product, from
 * godown, rate, quantity, clearing charge and the custom fields of sales; the average purchase
 * rate of the product in the godown and the profit preview.
 */
export function SaleFormDialog(props: { sale: Sale | null; cityId: string; onClose(): void }) {
  const { sale: s } = props;
  const styles = useStyles();
  const notify = useSnackbar();
  const cities = useCities();
  const products = useProducts();
  const write = useTransactionWrite(save('/transactions/sales', s?.id ?? null));
  const form = useSchemaForm(saleInput, {
    sale_date: s?.sale_date ?? today(),
    agent_id: s?.agent_id ?? '',
    product_id: s?.product_id ?? '',
    godown_id: s?.godown_id ?? '',
    rate: s?.rate ?? '',
    quantity: s?.quantity ?? '',
    clearing_charge: s?.clearing_charge ?? '0',
    custom_fields: customFieldDefaults(s?.customFieldValues),
  });
  const [productId, godownId, rate, quantity] = useWatch({
    control: form.control,
    name: ['product_id', 'godown_id', 'rate', 'quantity'],
  });
  const average = useQuery(averageRateQuery(String(productId ?? ''), String(godownId ?? '')));
  const city = cities.data?.find((c) => c.id === props.cityId);
  const profit = average.data
    ? profitPreview(String(rate ?? ''), String(quantity ?? ''), average.data.average_rate, city?.rate ?? '')
    : null;
  const submit = form.submit(async (v) => {
    await write.mutateAsync({ ...v, sale_date: isoDay(v.sale_date) });
    notify(s ? 'Sale updated successfully!' : 'Sale created successfully!');
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={s ? 'Edit Sale' : 'New Sale'}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <DateField name="sale_date" label="Sale Date" required />
        <EntityField
          kind="Agent"
          name="agent_id"
          label="Agent"
          required
          cityId={props.cityId}
          initialLabel={s?.agent.name ?? undefined}
        />
        <SelectField
          name="product_id"
          label="Product"
          required
          placeholder="Choose a product"
          hint={products.isError ? 'Failed to load required data for the form.' : undefined}
          choices={(products.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
        />
        <EntityField
          kind="Godown"
          name="godown_id"
          label="From Godown"
          required
          initialLabel={s?.godown.name ?? undefined}
        />
        <DecimalField name="rate" label="Sale Rate" required scale={4} suffix={city?.currency_name ?? ''} />
        <DecimalField name="quantity" label="Quantity" required scale={4} />
        <DecimalField name="clearing_charge" label="Clearing Charge" scale={2} suffix="INR" />
        {average.data ? (
          <div className={styles.preview} aria-live="polite">
            <Text size={200}>
              Average purchase rate: {formatRate(average.data.average_rate)} INR ({average.data.quantity} in
              stock)
            </Text>
            {profit ? (
              <Text
                size={200}
                weight="semibold"
                className={profit.startsWith('-') ? styles.loss : styles.gain}
              >
                Estimated profit: {formatAmount(profit)} INR
              </Text>
            ) : null}
          </div>
        ) : null}
        <CustomFieldInputs entity="Sale" />
      </FormDialog>
    </FormProvider>
  );
}

import { purchaseReturnInput, saleReturnInput } from '@bahi/contracts';
import { FormDialog, formatQuantity, useSnackbar } from '@bahi/ui';
import {
  DateField,
  DecimalField,
  FormProvider,
  PreviewPanel,
  TextField,
  usePreview,
  useSchemaForm,
  useWatch,
} from '@bahi/ui/form';
import { compareDecimal, isoDay, isPositiveDecimal, today } from '@bahi/ui/screen';
import { Text } from '@fluentui/react-components';
import { useEffect } from 'react';
import { CustomFieldInputs } from './custom-field-inputs.tsx';
import { post, useTransactionWrite } from './transaction-api.ts';

/**
 * Return of a purchase or a sale (spec sections 4-5): the quantity is capped at what remains (a
 * larger entry is reset to the maximum), step 0.0001; confirm is disabled when empty or 0.
 */
export function ReturnDialog(props: {
  kind: 'Purchase' | 'Sale';
  record: { id: string; remaining: string; product: { name: string | null } | null };
  onClose(): void;
}) {
  const { kind, record } = props;
  const notify = useSnackbar();
  const isPurchase = kind === 'Purchase';
  const write = useTransactionWrite(
    post(isPurchase ? '/transactions/purchase-returns' : '/transactions/sale-returns'),
  );
  const form = useSchemaForm(isPurchase ? purchaseReturnInput : saleReturnInput, {
    ...(isPurchase ? { purchase_id: record.id } : { sale_id: record.id }),
    quantity: '',
    return_date: today(),
    remarks: '',
    custom_fields: {},
  });
  const quantity = String(useWatch({ control: form.control, name: 'quantity' }) ?? '');
  useEffect(() => {
    if (quantity && compareDecimal(quantity, record.remaining) > 0)
      form.setValue('quantity', record.remaining);
  }, [quantity, record.remaining, form]);
  const preview = usePreview(
    'POST',
    isPurchase ? '/transactions/purchase-returns' : '/transactions/sale-returns',
    isPurchase ? purchaseReturnInput : saleReturnInput,
    useWatch({ control: form.control }),
    (v) => ({ ...v, return_date: isoDay(v.return_date) }),
  );
  const submit = form.submit(async (v) => {
    await write.mutateAsync({ ...v, return_date: isoDay(v.return_date) });
    notify(`${kind} return recorded successfully!`);
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={`Return ${kind}`}
        submitLabel="Return"
        busy={form.formState.isSubmitting}
        error={form.alert}
        submitDisabled={!isPositiveDecimal(quantity)}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <Text>
          {record.product?.name ?? ''}: {formatQuantity(record.remaining)} remaining
        </Text>
        <DecimalField
          name="quantity"
          label="Return Quantity"
          required
          scale={4}
          hint={`At most ${record.remaining}`}
        />
        <DateField name="return_date" label="Return Date" required />
        <TextField name="remarks" label="Remarks" multiline />
        <CustomFieldInputs entity={isPurchase ? 'PurchaseReturn' : 'SaleReturn'} />
        <PreviewPanel preview={preview} />
      </FormDialog>
    </FormProvider>
  );
}

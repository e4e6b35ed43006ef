import { cityInput } from '@bahi/contracts';
import { FormDialog, useSnackbar } from '@bahi/ui';
import { DecimalField, FormProvider, TextField, useSchemaForm } from '@bahi/ui/form';
import type { City } from '@bahi/ui/screen';
import { useMasterMutations } from '../../shared/master-api.ts';

/** New City / Edit City: name, currency name and its INR rate (ACCOUNTING.md section 2). */
export function CityFormDialog(props: { city: City | null; onClose(): void }) {
  const notify = useSnackbar();
  const { save } = useMasterMutations('cities');
  const form = useSchemaForm(cityInput, {
    name: props.city?.name ?? '',
    currency_name: props.city?.currency_name ?? '',
    rate: props.city?.rate ?? '',
  });
  const submit = form.submit(async (body) => {
    await save.mutateAsync({ id: props.city?.id ?? null, body });
    notify(`City ${props.city ? 'updated' : 'created'} successfully!`);
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={props.city ? 'Edit City' : 'New City'}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <TextField name="name" label="City Name" required />
        <TextField name="currency_name" label="Currency Name" required hint="For example INR, AED, PKR" />
        <DecimalField name="rate" label="Rate" required scale={4} hint="INR for one unit of the currency" />
      </FormDialog>
    </FormProvider>
  );
}

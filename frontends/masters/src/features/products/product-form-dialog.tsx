import { productInput } from '@bahi/contracts';
import { FormDialog, useSnackbar } from '@bahi/ui';
import { FormProvider, TextField, useSchemaForm } from '@bahi/ui/form';
import { useMasterMutations } from '../../shared/master-api.ts';
import type { Product } from './api.ts';

export function ProductFormDialog(props: { product: Product | null; onClose(): void }) {
  const notify = useSnackbar();
  const { save } = useMasterMutations('products');
  const form = useSchemaForm(productInput, { name: props.product?.name ?? '' });
  const submit = form.submit(async (body) => {
    await save.mutateAsync({ id: props.product?.id ?? null, body });
    notify(`Product ${props.product ? 'updated' : 'created'} successfully!`);
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={props.product ? 'Edit Product' : 'New Product'}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <TextField name="name" label="Product Name" required />
      </FormDialog>
    </FormProvider>
  );
}

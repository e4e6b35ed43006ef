import { SelectField } from '@bahi/ui/form';
import { useProducts } from '@bahi/ui/screen';

/** Product (required), from the products list; says so when the list failed to load (purchase, sale, bulk sale). */
export function ProductField() {
  const products = useProducts();
  return (
    <SelectField
      name="product_id"
      label="Product"
      required
      placeholder="Choose a product"
      hint={products.isError ? 'Failed to load required data for the form.' : undefined}
      choices={(products.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
    />
  );
}

import { lazyNamed } from '@bahi/ui';
import { MasterPage } from '../../shared/master-page.tsx';
import { type Product, useProductsPage } from './api.ts';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const ProductFormDialog = lazyNamed(() => import('./product-form-dialog.tsx'), 'ProductFormDialog');

/** Products (spec section 2): a name column; New Product, edit, delete. */
export function ProductsPage() {
  return (
    <MasterPage<Product>
      kind="Product"
      title="Products"
      path="products"
      searchLabel="Search by name"
      fetchFallback="Failed to fetch products."
      emptyText="No products found."
      deleteMessage={(p) => `Are you sure you want to delete "${p.name}"?`}
      useRows={useProductsPage}
      columns={[{ key: 'name', header: 'Name', render: (p) => p.name }]}
      form={(product, close) => <ProductFormDialog product={product} onClose={close} />}
    />
  );
}

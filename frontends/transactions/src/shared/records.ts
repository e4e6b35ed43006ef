/** A purchase and a sale: the list's title, where they are read and written, the business date's field. */
export const RECORDS = {
  Purchase: { title: 'Purchases', path: '/transactions/purchases', dateField: 'purchase_date' },
  Sale: { title: 'Sales', path: '/transactions/sales', dateField: 'sale_date' },
} as const;

export type RecordKind = keyof typeof RECORDS;

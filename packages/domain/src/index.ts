export * from './accounting/postings.ts';
export * from './cash/cash.ts';
export * from './custom-fields/custom-fields.ts';
export * from './decimal.ts';
export * from './errors.ts';
export * from './inventory/inventory.ts';
export * from './masters/master.ts';
export * from './purchases/direct-purchase.ts';

import { z } from 'zod';
import {
  amountInput,
  businessDate,
  everyRound,
  id,
  isStorableText,
  optionalId,
  optionalText,
  quantityInput,
  rateInput,
} from './primitives.ts';

/** HTTP payloads of purchases, sales and their returns (spec section 3). */

/** More than any form has; a body within the size limit could otherwise carry 70,000 names. */
export const MAX_CUSTOM_FIELDS = 500;

type CustomFieldValues = Record<string, string | number | boolean | null>;

const customFields = z
  .custom<CustomFieldValues>()
  // The names are checked before the record is parsed, and only the first bad one is named: a
  // body of thousands of names is one refusal, not one per name (issue #27: 1 MB of unknown
  // names was answered with 6.9 MB of errors). Here, too, a name's own message reaches the
  // client; the record would wrap it in its generic one.
  .superRefine((values, ctx) => {
    if (typeof values !== 'object' || values === null) return;
    const names = Object.keys(values);
    if (names.length > MAX_CUSTOM_FIELDS) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_CUSTOM_FIELDS} custom fields can be given` });
      return;
    }
    for (const name of names) {
      const problem =
        name.length > 100
          ? 'A custom field id can be at most 100 characters'
          : isStorableText(name)
            ? undefined
            : 'A custom field id contains characters that cannot be stored';
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem, path: [name] });
        return;
      }
    }
  })
  .pipe(
    z.record(
      z.string(),
      z.union([
        z
          .string()
          .max(1000, 'A custom field value can be at most 1000 characters')
          .refine(isStorableText, 'A custom field value contains characters that cannot be stored'),
        z.number(),
        z.boolean(),
        z.null(),
      ]),
      { error: 'Custom fields must map field ids to values' },
    ),
  )
  .optional()
  .transform((v) => v ?? {});

const positiveQuantity = (label: string) =>
  quantityInput(label).refine((v) => !v.startsWith('-') && /[1-9]/.test(v), `${label} must be more than 0`);
const positiveRate = (label: string) =>
  rateInput(label).refine((v) => !v.startsWith('-') && /[1-9]/.test(v), `${label} must be more than 0`);
const nonNegativeAmount = (label: string) =>
  amountInput(label).refine((v) => !v.startsWith('-'), `${label} cannot be negative`);

/**
 * The record a new entry corrects, when it is an adjustment of a closed period (issue #30): its
 * id. Left out or null: not an adjustment. The command checks it names a dated transaction
 * record that stands (services/command/src/adjustments.ts).
 */
export const adjustsInput = optionalId('Adjusts', 'the record this entry adjusts');

/** A paid amount that passed its check and is above 0 (a failed one is the field's own issue). */
const isPaid = (amount: unknown) =>
  typeof amount === 'string' && /^\d+\.\d{2}$/.test(amount) && /[1-9]/.test(amount);

export const purchaseInput = z
  .object({
    type: z.enum(['Godown', 'Direct'], { error: 'Type must be Godown or Direct' }),
    purchase_date: businessDate('Purchase date'),
    city_id: id('City'),
    funder_id: id('Funder'),
    product_id: id('Product'),
    godown_id: optionalId('Destination godown'),
    collector_id: optionalId('Collector'),
    agent_id: optionalId('Agent'),
    rate: positiveRate('Rate'),
    quantity: positiveQuantity('Quantity'),
    paid_amount: nonNegativeAmount('Paid amount').prefault('0'),
    commission: nonNegativeAmount('Commission').prefault('0'),
    custom_fields: customFields,
    adjusts: adjustsInput,
  })
  // Also when other fields are wrong, so that the first save flags every field (issue #25): the
  // values are then as given where they failed, so each rule reads only what it needs.
  .superRefine((p, ctx) => {
    if (p.type === 'Godown' && !p.godown_id) {
      ctx.addIssue({ code: 'custom', path: ['godown_id'], message: 'Choose the destination godown' });
    }
    if (p.type === 'Direct' && !p.agent_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['agent_id'],
        message: 'Agent is required for a direct purchase',
      });
    }
    if (isPaid(p.paid_amount) && !p.collector_id) {
      ctx.addIssue({ code: 'custom', path: ['collector_id'], message: 'Choose the collector who paid' });
    }
  }, everyRound)
  .transform((p) => ({
    ...p,
    // Fields that do not apply to the type are dropped, not stored.
    agent_id: p.type === 'Direct' ? p.agent_id : null,
    commission: p.type === 'Direct' ? p.commission : '0.00',
  }));

export const saleRowInput = z.object({
  agent_id: id('Agent'),
  rate: positiveRate('Sale rate'),
  quantity: positiveQuantity('Quantity'),
  clearing_charge: nonNegativeAmount('Clearing charge').prefault('0'),
});

export const saleInput = saleRowInput.extend({
  sale_date: businessDate('Sale date'),
  product_id: id('Product'),
  godown_id: id('From godown', 'a godown to sell from'),
  custom_fields: customFields,
  adjusts: adjustsInput,
});

export const bulkSaleInput = z.object({
  common: z.object(
    { sale_date: businessDate('Sale date'), godown_id: id('Godown'), product_id: id('Product') },
    { error: 'Please select a Godown and a Product.' },
  ),
  sales: z
    .array(saleRowInput, { error: 'Please add at least one valid sale row.' })
    .min(1, 'Please add at least one valid sale row.')
    .max(500, 'A bulk sale can have at most 500 rows'),
});

export const purchaseReturnInput = z.object({
  purchase_id: id('Purchase'),
  quantity: positiveQuantity('Return quantity'),
  return_date: businessDate('Return date'),
  remarks: optionalText('Remarks'),
  custom_fields: customFields,
});

export const saleReturnInput = z.object({
  sale_id: id('Sale'),
  quantity: positiveQuantity('Return quantity'),
  return_date: businessDate('Return date'),
  remarks: optionalText('Remarks'),
  custom_fields: customFields,
});

export type PurchaseInput = z.infer<typeof purchaseInput>;
export type SaleInput = z.infer<typeof saleInput>;
export type SaleRowInput = z.infer<typeof saleRowInput>;
export type BulkSaleInput = z.infer<typeof bulkSaleInput>;
export type PurchaseReturnInput = z.infer<typeof purchaseReturnInput>;
export type SaleReturnInput = z.infer<typeof saleReturnInput>;

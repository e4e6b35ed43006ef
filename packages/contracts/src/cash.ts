import { z } from 'zod';
import {
  amountInput,
  businessDate,
  everyRound,
  id,
  optionalId,
  optionalText,
  rateInput,
  requiredText,
} from './primitives.ts';
import { adjustsInput } from './transactions.ts';

/** HTTP payloads of cash movements (spec section 3). */

/** A whole number as a JSON number or digits in a string; never true, [] or '' coerced into one. */
const wholeNumber = (message: string) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,6}$/, message),
      ],
      { error: message },
    )
    .transform((v) => Number(v))
    .pipe(z.number().int(message));

const positiveAmount = (label: string) =>
  amountInput(label).refine((v) => !v.startsWith('-') && /[1-9]/.test(v), `${label} must be more than 0`);

export const paymentInput = z
  .object({
    related_entity_type: z.enum(['Funder', 'Agent'], { error: 'Pay a Funder or receive from an Agent' }),
    related_entity_id: id('Funder or agent'),
    payment_date: businessDate('Payment date'),
    amount: positiveAmount('Amount'),
    payment_mode: z.enum(['Currency', 'INR'], { error: 'Payment mode must be Currency or INR' }),
    collector_id: optionalId('Collector'),
    godown_id: optionalId('Godown'),
    reference: optionalText('Reference'),
    adjusts: adjustsInput,
  })
  .superRefine((p, ctx) => {
    if (p.payment_mode === 'Currency' && !p.collector_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['collector_id'],
        message: 'Choose the collector who handles the cash',
      });
    }
    if (p.payment_mode === 'INR' && !p.godown_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['godown_id'],
        message: 'Choose the godown that handles the cash',
      });
    }
  }, everyRound)
  .transform((p) => ({
    ...p,
    collector_id: p.payment_mode === 'Currency' ? p.collector_id : null,
    godown_id: p.payment_mode === 'INR' ? p.godown_id : null,
  }));

export const clearingPayoutInput = z.object({
  payout_date: businessDate('Payout date'),
  godown_id: id('Godown'),
  payer_entity_type: z.literal('Godown', { error: 'Clearing is paid by a godown' }).prefault('Godown'),
  payer_entity_id: id('Paying godown'),
  amount: positiveAmount('Amount'),
  remarks: optionalText('Remarks'),
});

export const salaryPaymentInput = z
  .object({
    collector_id: id('Collector'),
    month: wholeNumber('Month must be 1 to 12').pipe(
      z.number().min(1, 'Month must be 1 to 12').max(12, 'Month must be 1 to 12'),
    ),
    year: wholeNumber('Year must be a year').pipe(
      z.number().min(2000, 'Year must be 2000 or later').max(2100, 'Year must be 2100 or earlier'),
    ),
    payment_type: z.enum(['Full', 'Advance'], { error: 'Payment type must be Full or Advance' }),
    payment_mode: z.enum(['Currency', 'INR'], { error: 'Payment mode must be Currency or INR' }),
    /** In the collector's city currency. Ignored for Full: the server pays what is left. */
    amount: amountInput('Amount').optional(),
    category: optionalText('Category', 100),
    paid_from_entity_type: z.enum(['Collector', 'Godown'], {
      error: 'Paid from must be a Collector or a Godown',
    }),
    paid_from_entity_id: id('Paid from', 'a collector or godown to pay from'),
    handler_entity_id: optionalId('Handler'),
    payment_date: businessDate('Payment date').optional(),
    remarks: optionalText('Remarks'),
  })
  .superRefine((p, ctx) => {
    if (p.payment_mode === 'Currency' && p.paid_from_entity_type !== 'Collector') {
      ctx.addIssue({
        code: 'custom',
        path: ['paid_from_entity_type'],
        message: 'In Currency mode a collector pays',
      });
    }
    if (p.payment_mode === 'INR' && p.paid_from_entity_type !== 'Godown') {
      ctx.addIssue({ code: 'custom', path: ['paid_from_entity_type'], message: 'In INR mode a godown pays' });
    }
    if (p.payment_type === 'Advance' && (!p.amount || p.amount.startsWith('-') || !/[1-9]/.test(p.amount))) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Amount must be more than 0' });
    }
  });

export const transferInput = z
  .object({
    transfer_date: businessDate('Transfer date'),
    from_collector_id: id('From collector', 'the collector who sends'),
    to_collector_id: id('To collector', 'the collector who receives'),
    sent_amount: positiveAmount('Amount to send'),
    transfer_charge: amountInput('Charge')
      .refine((v) => !v.startsWith('-'), 'Charge cannot be negative')
      .prefault('0'),
    operation: z.enum(['*', '/'], { error: "Operation must be '*' or '/'" }).default('*'),
    rate: rateInput('Rate')
      .refine((v) => !v.startsWith('-') && /[1-9]/.test(v), 'Rate must be more than 0')
      .prefault('1'),
    remarks: optionalText('Remarks'),
    adjusts: adjustsInput,
  })
  .superRefine((t, ctx) => {
    if (t.from_collector_id === t.to_collector_id) {
      ctx.addIssue({ code: 'custom', path: ['to_collector_id'], message: 'Choose two different collectors' });
    }
    const [s, k] = [t.sent_amount, t.transfer_charge].map((v) => BigInt(v.replace('.', '')));
    if (k! > s!)
      ctx.addIssue({
        code: 'custom',
        path: ['transfer_charge'],
        message: 'Charge cannot be more than the amount sent',
      });
  });

const cashEntry = {
  city_id: id('City'),
  category: requiredText('Category', 100),
  amount: positiveAmount('Amount'),
  remarks: optionalText('Remarks'),
  adjusts: adjustsInput,
};

export const expenseInput = z.object({
  ...cashEntry,
  expense_date: businessDate('Expense date'),
  paid_from_entity_type: z.enum(['Collector', 'Godown'], {
    error: 'Paid from must be a Collector or a Godown',
  }),
  paid_from_entity_id: id('Paid from', 'a collector or godown to pay from'),
});

export const incomeInput = z.object({
  ...cashEntry,
  income_date: businessDate('Income date'),
  received_by_entity_type: z.enum(['Collector', 'Godown'], {
    error: 'Received by must be a Collector or a Godown',
  }),
  received_by_entity_id: id('Received by', 'a collector or godown to receive it'),
});

export type PaymentInput = z.infer<typeof paymentInput>;
export type ClearingPayoutInput = z.infer<typeof clearingPayoutInput>;
export type SalaryPaymentInput = z.infer<typeof salaryPaymentInput>;
export type TransferInput = z.infer<typeof transferInput>;
export type ExpenseInput = z.infer<typeof expenseInput>;
export type IncomeInput = z.infer<typeof incomeInput>;

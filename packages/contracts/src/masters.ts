import { z } from 'zod';
import {
  amountInput,
  id,
  optionalBusinessDate,
  optionalText,
  rateInput,
  requiredText,
} from './primitives.ts';

/** HTTP payloads of the master kinds (spec section 3), as the command API accepts them. */

export const cityInput = z.object({
  name: requiredText('City name', 100),
  currency_name: requiredText('Currency name', 50),
  rate: rateInput('Rate').refine((v) => !v.startsWith('-') && /[1-9]/.test(v), 'Rate must be more than 0'),
});

export const productInput = z.object({
  name: requiredText('Product name', 200),
});

const partyFields = {
  name: requiredText('Name'),
  joining_date: optionalBusinessDate('Joining date'),
  address: optionalText('Address'),
  narration: optionalText('Narration'),
  phone: optionalText('Phone', 30),
  opening_balance: amountInput('Opening balance').prefault('0'),
};

export const funderInput = z.object({ ...partyFields, city_id: id('City') });
export const agentInput = z.object({ ...partyFields, city_id: id('City') });
export const godownInput = z.object(partyFields);
export const collectorInput = z.object({
  ...partyFields,
  city_id: id('City'),
  salary_per_month: amountInput('Salary per month').prefault('0'),
});

import { ROLES } from './roles.ts';

export { ROLES, type Role } from './roles.ts';

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email('Email must be an email address').max(254));

export const userCreateInput = z.object({
  name: requiredText('Full name', 100),
  email,
  phone: optionalText('Phone', 30),
  role: z.enum(ROLES, { error: 'Role must be Admin, Manager, Collector or Viewer' }).default('Viewer'),
  is_active: z.boolean({ error: 'Active must be true or false' }).default(true),
  password: z
    .string({ error: 'Password is required' })
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password can be at most 200 characters'),
});

export const userUpdateInput = userCreateInput.extend({
  // A blank password is left out by the UI: keep the current one.
  password: z
    .string()
    .max(200, 'Password can be at most 200 characters')
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().min(6, 'Password must be at least 6 characters').optional()),
});

export const CUSTOM_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'BOOLEAN', 'SELECT'] as const;
export const CUSTOM_FIELD_ENTITY_TYPES = ['Purchase', 'Sale', 'PurchaseReturn', 'SaleReturn'] as const;

export const customFieldInput = z
  .object({
    name: requiredText('Field name', 100),
    type: z.enum(CUSTOM_FIELD_TYPES, { error: 'Field type must be TEXT, NUMBER, DATE, BOOLEAN or SELECT' }),
    is_required: z.boolean({ error: 'Required must be true or false' }).default(false),
    options: z
      .array(requiredText('Option', 100), { error: 'Options must be a list of texts' })
      .max(200, 'A field can have at most 200 options')
      .nullish(),
    entity_types: z
      .array(
        z.enum(CUSTOM_FIELD_ENTITY_TYPES, {
          error: 'Apply to must be Purchase, Sale, PurchaseReturn or SaleReturn',
        }),
        {
          error: 'Apply to forms is required',
        },
      )
      .min(1, 'Choose at least one form to apply the field to')
      .transform((list) => [...new Set(list)]),
  })
  .transform((value, ctx) => {
    if (value.type !== 'SELECT') return { ...value, options: null };
    const options = [...new Set(value.options ?? [])];
    if (options.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: 'A dropdown field needs at least one option',
      });
      return z.NEVER;
    }
    return { ...value, options };
  });

export type CityInput = z.infer<typeof cityInput>;
export type ProductInput = z.infer<typeof productInput>;
export type FunderInput = z.infer<typeof funderInput>;
export type AgentInput = z.infer<typeof agentInput>;
export type GodownInput = z.infer<typeof godownInput>;
export type CollectorInput = z.infer<typeof collectorInput>;
export type UserCreateInput = z.infer<typeof userCreateInput>;
export type UserUpdateInput = z.infer<typeof userUpdateInput>;
export type CustomFieldInput = z.infer<typeof customFieldInput>;

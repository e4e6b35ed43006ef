import {
  agentInput,
  cityInput,
  collectorInput,
  expenseInput,
  funderInput,
  godownInput,
  type ImportKind,
  incomeInput,
  paymentInput,
  productInput,
  purchaseInput,
  saleInput,
} from '@bahi/contracts';
import type { CustomFieldDefinition, CustomFieldEntity, MasterKind } from '@bahi/domain';
import type { z } from 'zod';

/**
 * The columns of each import kind (issue #31): the header a sheet carries, the API field it feeds,
 * how its cells are read, and the rule and example the template shows. The row is then checked
 * with the kind's own request schema from @bahi/contracts, as POST /api/masters/<kind> checks it.
 */
export type CellType =
  | 'text'
  | 'amount'
  | 'rate'
  | 'quantity'
  | 'number'
  | 'boolean'
  | 'date'
  | 'city'
  | 'entity'
  | RefType;

/** Columns that name a master the API takes by id: looked up by name (a party within the row's city). */
export type RefType = 'funder' | 'agent' | 'collector' | 'product' | 'godown';
export const REF_TYPES: readonly RefType[] = ['funder', 'agent', 'collector', 'product', 'godown'];

export interface ImportColumn {
  header: string;
  field: string;
  type: CellType;
  required: boolean;
  rule: string;
  example: string;
  /** The values the API takes (any case in a cell reads as the API spells it). */
  choices?: readonly string[];
  /** An 'entity' column: the master it names is of the kind another column's value gives. */
  entityOf?: { field: string; types: Readonly<Record<string, RefType>> };
  /** A custom field's column (field `custom_fields.<id>`): the definition its cells are values of. */
  custom?: CustomFieldDefinition;
}

export interface ImportKindSpec {
  kind: ImportKind;
  /** The master each row creates; null for a transaction kind (purchases), decided on its own streams. */
  master: Exclude<MasterKind, 'User' | 'CustomFieldDefinition'> | null;
  /** The sheet an XLSX file keeps its rows on (and the template's first sheet). */
  sheet: string;
  /** One record, in the words of a message ("funder"). */
  noun: string;
  input: z.ZodType<Record<string, unknown>>;
  columns: ImportColumn[];
  /** Whether the records carry an opening balance (the preview's effect lists them). */
  balances: boolean;
  /** A transaction kind whose records carry custom fields: the entity their definitions apply to. */
  customFields?: CustomFieldEntity;
}

const name = (label: string, example: string): ImportColumn => ({
  header: 'Name',
  field: 'name',
  type: 'text',
  required: true,
  rule: `The ${label}'s name, up to 200 characters. Spaces before and after are dropped.`,
  example,
});
const city: ImportColumn = {
  header: 'City',
  field: 'city_id',
  type: 'city',
  required: true,
  rule: 'The name of a city already in Bahi (see the Cities sheet); a city named twice is refused with both.',
  example: 'Kabul',
};
const opening: ImportColumn = {
  header: 'Opening Balance',
  field: 'opening_balance',
  type: 'amount',
  required: false,
  rule: 'In the city’s currency, up to 2 decimal places; empty is 0. "1,00,000", "₹ 5,000" and "Rs. 250" are read as numbers; a formula is not.',
  example: '100000',
};
const party = (label: string): ImportColumn[] => [
  {
    header: 'Joining Date',
    field: 'joining_date',
    type: 'date',
    required: false,
    rule: 'A date cell, or text as 2026-04-01 or 01/04/2026 (day first), between 2000 and 2099; may be empty.',
    example: '2026-04-01',
  },
  {
    header: 'Phone',
    field: 'phone',
    type: 'text',
    required: false,
    rule: 'Up to 30 characters.',
    example: '+93 70 123 4567',
  },
  {
    header: 'Address',
    field: 'address',
    type: 'text',
    required: false,
    rule: `The ${label}'s address, up to 500 characters.`,
    example: 'Shar-e-Naw',
  },
  {
    header: 'Narration',
    field: 'narration',
    type: 'text',
    required: false,
    rule: 'Up to 500 characters.',
    example: '',
  },
];

/** A column naming a master by name (or id). */
const ref = (
  header: string,
  field: string,
  type: RefType,
  required: boolean,
  rule: string,
  example: string,
): ImportColumn => ({ header, field, type, required, rule, example });

const purchaseColumns: ImportColumn[] = [
  {
    header: 'Type',
    field: 'type',
    type: 'text',
    required: true,
    rule: 'Godown (the goods go into a godown) or Direct (straight to an agent).',
    example: 'Godown',
    choices: ['Godown', 'Direct'],
  },
  {
    header: 'Purchase Date',
    field: 'purchase_date',
    type: 'date',
    required: true,
    rule: 'A date cell, or text as 2026-04-01 or 01/04/2026 (day first); not in a closed period.',
    example: '2026-04-01',
  },
  city,
  ref(
    'Funder',
    'funder_id',
    'funder',
    true,
    'The name of a funder of that city (see the Masters sheet); two funders of the city with the name are refused with both.',
    'Haji Rahim',
  ),
  ref('Product', 'product_id', 'product', true, 'The name of a product in Bahi.', 'Cumin'),
  ref(
    'Godown',
    'godown_id',
    'godown',
    false,
    'For a Godown purchase: the godown the goods go into.',
    'Bhiwandi',
  ),
  ref(
    'Agent',
    'agent_id',
    'agent',
    false,
    'For a Direct purchase: the agent of that city the goods go to; ignored for a Godown purchase.',
    '',
  ),
  ref(
    'Collector',
    'collector_id',
    'collector',
    false,
    'The collector of that city who paid; required when Paid Amount is more than 0.',
    'Imran',
  ),
  {
    header: 'Rate',
    field: 'rate',
    type: 'rate',
    required: true,
    rule: 'Price of one unit in the city’s currency, more than 0, up to 4 decimal places.',
    example: '250.50',
  },
  {
    header: 'Quantity',
    field: 'quantity',
    type: 'quantity',
    required: true,
    rule: 'More than 0, up to 4 decimal places.',
    example: '100',
  },
  {
    header: 'Paid Amount',
    field: 'paid_amount',
    type: 'amount',
    required: false,
    rule: 'Paid to the funder now, in the city’s currency, up to 2 decimal places; empty is 0.',
    example: '5000',
  },
  {
    header: 'Commission',
    field: 'commission',
    type: 'amount',
    required: false,
    rule: 'For a Direct purchase: the commission charged to the agent, up to 2 decimal places; empty is 0.',
    example: '',
  },
];

/** A transaction's date column: a date cell or text, not in a closed period. */
const txDate = (header: string, field: string): ImportColumn => ({
  header,
  field,
  type: 'date',
  required: true,
  rule: 'A date cell, or text as 2026-04-01 or 01/04/2026 (day first); not in a closed period.',
  example: '2026-04-01',
});
const money = (header: string, field: string, required: boolean, rule: string, example: string) =>
  ({ header, field, type: 'amount', required, rule, example }) satisfies ImportColumn;
const remarks = (header: string, field: string): ImportColumn => ({
  header,
  field,
  type: 'text',
  required: false,
  rule: 'Up to 500 characters.',
  example: '',
});
/**
 * A City column the API does not take (a sale's or a payment's city is its party's): it only
 * narrows the look-up of a party by name, when parties of two cities share the name.
 */
const partyCity = (party: string): ImportColumn => ({
  ...city,
  required: false,
  rule: `The ${party}'s city (see the Cities sheet): needed only when ${party}s of two cities share the name; may be empty.`,
  example: '',
});

const saleColumns: ImportColumn[] = [
  txDate('Sale Date', 'sale_date'),
  partyCity('agent'),
  ref(
    'Agent',
    'agent_id',
    'agent',
    true,
    'The name of the agent sold to (see the Masters sheet); two agents with the name are refused with both (write the City, or the id).',
    'Bilal Traders',
  ),
  ref('Product', 'product_id', 'product', true, 'The name of a product in Bahi.', 'Cumin'),
  ref(
    'Godown',
    'godown_id',
    'godown',
    true,
    'The godown the goods leave from: it must hold the quantity (the rows above in the file count).',
    'Bhiwandi',
  ),
  {
    header: 'Rate',
    field: 'rate',
    type: 'rate',
    required: true,
    rule: 'Sale price of one unit in the agent’s city currency, more than 0, up to 4 decimal places.',
    example: '300',
  },
  {
    header: 'Quantity',
    field: 'quantity',
    type: 'quantity',
    required: true,
    rule: 'More than 0, up to 4 decimal places; no more than the godown holds.',
    example: '10',
  },
  money(
    'Clearing Charge',
    'clearing_charge',
    false,
    'The clearing charge of the sale, owed to the godown, in rupees, up to 2 decimal places; empty is 0.',
    '',
  ),
];

const PARTY_TYPES = { funder: 'funder', agent: 'agent' } as const;
const CASH_TYPES = { collector: 'collector', godown: 'godown' } as const;

const paymentColumns: ImportColumn[] = [
  txDate('Payment Date', 'payment_date'),
  {
    header: 'Party Type',
    field: 'related_entity_type',
    type: 'text',
    required: true,
    rule: 'Funder (a payment to a funder) or Agent (a receipt from an agent).',
    example: 'Funder',
    choices: ['Funder', 'Agent'],
  },
  partyCity('party'),
  {
    header: 'Party',
    field: 'related_entity_id',
    type: 'entity',
    required: true,
    rule: 'The name of the funder or agent (as Party Type says; see the Masters sheet); two with the name are refused with both.',
    example: 'Haji Rahim',
    entityOf: { field: 'related_entity_type', types: PARTY_TYPES },
  },
  money(
    'Amount',
    'amount',
    true,
    'More than 0, up to 2 decimal places: in the party’s city currency for Currency, in rupees for INR. "1,00,000" and "₹ 5,000" are read as numbers.',
    '5000',
  ),
  {
    header: 'Payment Mode',
    field: 'payment_mode',
    type: 'text',
    required: true,
    rule: 'Currency (a collector of the party’s city handles the cash) or INR (a godown does).',
    example: 'Currency',
    choices: ['Currency', 'INR'],
  },
  ref(
    'Collector',
    'collector_id',
    'collector',
    false,
    'For Currency: the collector of the party’s city who handles the cash; ignored for INR.',
    'Imran',
  ),
  ref(
    'Godown',
    'godown_id',
    'godown',
    false,
    'For INR: the godown that handles the cash; ignored for Currency.',
    '',
  ),
  { ...remarks('Reference', 'reference'), rule: 'A cheque number or a note, up to 500 characters.' },
];

/** An expense's Paid From, an income's Received By: a collector of the row's city or a godown. */
const cashEntryColumns = (kind: 'Expense' | 'Income'): ImportColumn[] => {
  const [side, field, verb] =
    kind === 'Expense'
      ? (['Paid From', 'paid_from', 'pays it'] as const)
      : (['Received By', 'received_by', 'receives it'] as const);
  return [
    txDate(`${kind} Date`, `${kind.toLowerCase()}_date`),
    city,
    {
      header: 'Category',
      field: 'category',
      type: 'text',
      required: true,
      rule: 'Up to 100 characters, e.g. Rent or Commission; the day-wise report groups by it.',
      example: kind === 'Expense' ? 'Rent' : 'Commission',
    },
    money(
      'Amount',
      'amount',
      true,
      'More than 0, up to 2 decimal places: in the city’s currency when a collector handles it, in rupees when a godown does.',
      '2500',
    ),
    {
      header: `${side} Type`,
      field: `${field}_entity_type`,
      type: 'text',
      required: true,
      rule: `Collector or Godown: who ${verb}.`,
      example: 'Collector',
      choices: ['Collector', 'Godown'],
    },
    {
      header: side,
      field: `${field}_entity_id`,
      type: 'entity',
      required: true,
      rule: `The name of the collector (of that city) or the godown who ${verb} (see the Masters sheet).`,
      example: 'Imran',
      entityOf: { field: `${field}_entity_type`, types: CASH_TYPES },
    },
    remarks('Remarks', 'remarks'),
  ];
};

export const IMPORT_SPECS: Record<ImportKind, ImportKindSpec> = {
  funders: {
    kind: 'funders',
    master: 'Funder',
    sheet: 'Funders',
    noun: 'funder',
    input: funderInput,
    balances: true,
    columns: [name('funder', 'Haji Rahim'), city, opening, ...party('funder')],
  },
  agents: {
    kind: 'agents',
    master: 'Agent',
    sheet: 'Agents',
    noun: 'agent',
    input: agentInput,
    balances: true,
    columns: [name('agent', 'Bilal Traders'), city, opening, ...party('agent')],
  },
  collectors: {
    kind: 'collectors',
    master: 'Collector',
    sheet: 'Collectors',
    noun: 'collector',
    input: collectorInput,
    balances: true,
    columns: [
      name('collector', 'Imran'),
      city,
      opening,
      {
        header: 'Salary per Month',
        field: 'salary_per_month',
        type: 'amount',
        required: false,
        rule: 'In the city’s currency, up to 2 decimal places; empty is 0.',
        example: '15000',
      },
      ...party('collector'),
    ],
  },
  godowns: {
    kind: 'godowns',
    master: 'Godown',
    sheet: 'Godowns',
    noun: 'godown',
    input: godownInput,
    balances: true,
    columns: [
      name('godown', 'Bhiwandi'),
      { ...opening, rule: opening.rule.replace('the city’s currency', 'rupees') },
      ...party('godown'),
    ],
  },
  cities: {
    kind: 'cities',
    master: 'City',
    sheet: 'Cities',
    noun: 'city',
    input: cityInput,
    balances: false,
    columns: [
      { ...name('city', 'Kabul'), rule: "The city's name, up to 100 characters." },
      {
        header: 'Currency Name',
        field: 'currency_name',
        type: 'text',
        required: true,
        rule: 'The currency the city’s accounts are kept in, up to 50 characters.',
        example: 'AFN',
      },
      {
        header: 'Rate',
        field: 'rate',
        type: 'rate',
        required: true,
        rule: 'Rupees for one unit of the currency, more than 0, up to 4 decimal places.',
        example: '1.2500',
      },
    ],
  },
  products: {
    kind: 'products',
    master: 'Product',
    sheet: 'Products',
    noun: 'product',
    input: productInput,
    balances: false,
    columns: [name('product', 'Cumin')],
  },
  purchases: {
    kind: 'purchases',
    master: null,
    sheet: 'Purchases',
    noun: 'purchase',
    // The schema's output is the purchase as the API records it; its input is what a row gives.
    input: purchaseInput as unknown as z.ZodType<Record<string, unknown>>,
    balances: false,
    columns: purchaseColumns,
    customFields: 'Purchase',
  },
  sales: {
    kind: 'sales',
    master: null,
    sheet: 'Sales',
    noun: 'sale',
    input: saleInput as unknown as z.ZodType<Record<string, unknown>>,
    balances: false,
    columns: saleColumns,
    customFields: 'Sale',
  },
  payments: {
    kind: 'payments',
    master: null,
    sheet: 'Payments',
    noun: 'payment',
    input: paymentInput as unknown as z.ZodType<Record<string, unknown>>,
    balances: false,
    columns: paymentColumns,
  },
  expenses: {
    kind: 'expenses',
    master: null,
    sheet: 'Expenses',
    noun: 'expense',
    input: expenseInput as unknown as z.ZodType<Record<string, unknown>>,
    balances: false,
    columns: cashEntryColumns('Expense'),
  },
  incomes: {
    kind: 'incomes',
    master: null,
    sheet: 'Incomes',
    noun: 'income',
    input: incomeInput as unknown as z.ZodType<Record<string, unknown>>,
    balances: false,
    columns: cashEntryColumns('Income'),
  },
};

const CUSTOM_LABEL: Record<CustomFieldEntity, string> = {
  Purchase: 'purchases',
  Sale: 'sales',
  PurchaseReturn: 'purchase returns',
  SaleReturn: 'sale returns',
};
/** How each custom field type's cells are read (the API's check then has the last word). */
const CUSTOM_CELL: Record<CustomFieldDefinition['type'], CellType> = {
  TEXT: 'text',
  NUMBER: 'number',
  DATE: 'date',
  BOOLEAN: 'boolean',
  SELECT: 'text',
};

/** A custom field's column: headed by its name, its rule its type (a dropdown's options), a sensible example. */
function customFieldColumn(
  def: CustomFieldDefinition,
  entity: CustomFieldEntity,
  header: string,
): ImportColumn {
  const options = def.options ?? [];
  const what = {
    TEXT: ['text', 'Text, up to 1000 characters.', 'A-101'],
    NUMBER: ['number', 'A number such as 12.5 or -3 ("1,000" is read as 1000).', '10'],
    DATE: ['date', 'A date cell, or text as 2026-04-01 or 01/04/2026 (day first).', '2026-04-01'],
    BOOLEAN: ['yes or no', 'Yes or No (TRUE and FALSE cells too).', 'Yes'],
    SELECT: ['dropdown', `One of: ${options.join(', ')}.`, options[0] ?? ''],
  }[def.type];
  return {
    header,
    field: `custom_fields.${def.id}`,
    type: CUSTOM_CELL[def.type],
    required: def.is_required,
    rule: `A custom field of ${CUSTOM_LABEL[entity]} (${what[0]}; Settings > Custom Fields): ${what[1]}${def.is_required ? '' : ' May be empty.'}`,
    example: what[2]!,
    ...(def.type === 'SELECT' ? { choices: options } : {}),
    custom: def,
  };
}

/**
 * A kind's columns with, for purchases and sales, one column per custom field definition that
 * applies to them (by name; a name another column or field already has is followed by the
 * field's id, so every header is one column).
 */
export function kindColumns(
  spec: ImportKindSpec,
  definitions: readonly CustomFieldDefinition[] = [],
): ImportColumn[] {
  const entity = spec.customFields;
  if (!entity) return spec.columns;
  const applying = definitions
    .filter((d) => d.entity_types.includes(entity))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const taken = new Set(spec.columns.map((c) => headerKey(c.header)));
  const named = new Map<string, number>();
  for (const d of applying) named.set(headerKey(d.name), (named.get(headerKey(d.name)) ?? 0) + 1);
  const custom = applying.map((d) => {
    const key = headerKey(d.name);
    const name = d.name.trim();
    const header = taken.has(key) || named.get(key)! > 1 ? `${name} (${d.id})` : name;
    return customFieldColumn(d, entity, header);
  });
  return [...spec.columns, ...custom];
}

/** A sheet's column letters: 1 -> A, 27 -> AA. */
export function columnLetter(index: number): string {
  let n = index;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** How a header is compared: case, spacing, a trailing '*' (required mark) and NFC do not matter. */
export const headerKey = (text: string) =>
  text
    .normalize('NFC')
    .replace(/\*+\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

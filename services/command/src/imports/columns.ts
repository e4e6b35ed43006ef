import {
  agentInput,
  cityInput,
  collectorInput,
  funderInput,
  godownInput,
  type ImportKind,
  productInput,
} from '@bahi/contracts';
import type { MasterKind } from '@bahi/domain';
import type { z } from 'zod';

/**
 * The columns of each import kind (issue #31): the header a sheet carries, the API field it feeds,
 * how its cells are read, and the rule and example the template shows. The row is then checked
 * with the kind's own request schema from @bahi/contracts, as POST /api/masters/<kind> checks it.
 */
export type CellType = 'text' | 'amount' | 'rate' | 'date' | 'city';

export interface ImportColumn {
  header: string;
  field: string;
  type: CellType;
  required: boolean;
  rule: string;
  example: string;
}

export interface ImportKindSpec {
  kind: ImportKind;
  master: Exclude<MasterKind, 'User' | 'CustomFieldDefinition'>;
  /** The sheet an XLSX file keeps its rows on (and the template's first sheet). */
  sheet: string;
  /** One record, in the words of a message ("funder"). */
  noun: string;
  input: z.ZodType<Record<string, unknown>>;
  columns: ImportColumn[];
  /** Whether the records carry an opening balance (the preview's effect lists them). */
  balances: boolean;
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
};

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

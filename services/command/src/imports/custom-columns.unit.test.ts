import type { CustomFieldDefinition } from '@bahi/domain';
import { describe, expect, it } from 'vitest';
import { readCell } from './cells.ts';
import { IMPORT_SPECS, kindColumns } from './columns.ts';
import { csvTemplate } from './templates.ts';

const def = (
  id: string,
  name: string,
  type: CustomFieldDefinition['type'],
  extra: Partial<CustomFieldDefinition> = {},
): CustomFieldDefinition => ({
  id,
  name,
  type,
  is_required: false,
  options: type === 'SELECT' ? ['A', 'B'] : null,
  entity_types: ['Purchase'],
  ...extra,
});

describe('the custom field columns of purchases and sales', () => {
  const defs = [
    def('f1', 'Lot, "no."', 'TEXT', { is_required: true }),
    def('f2', 'Grade', 'SELECT', { entity_types: ['Purchase', 'Sale'] }),
    def('f3', 'rate', 'NUMBER'),
    def('f4', 'Bag', 'TEXT'),
    def('f5', 'bag ', 'BOOLEAN'),
    def('f6', 'Reason', 'TEXT', { entity_types: ['SaleReturn'] }),
  ];
  const base = IMPORT_SPECS.purchases.columns.length;

  it('adds one column per field of the kind, by name; a name another column has gets the id', () => {
    const columns = kindColumns(IMPORT_SPECS.purchases, defs).slice(base);
    expect(columns.map((c) => [c.header, c.field, c.type, c.required])).toEqual([
      ['Bag (f4)', 'custom_fields.f4', 'text', false],
      ['bag (f5)', 'custom_fields.f5', 'boolean', false],
      ['Grade', 'custom_fields.f2', 'text', false],
      ['Lot, "no."', 'custom_fields.f1', 'text', true],
      ['rate (f3)', 'custom_fields.f3', 'number', false],
    ]);
    expect(columns[2]).toMatchObject({ choices: ['A', 'B'], example: 'A' });
    expect(
      kindColumns(IMPORT_SPECS.sales, defs)
        .slice(-1)
        .map((c) => c.header),
    ).toEqual(['Grade']);
    // Kinds whose API takes no custom fields get none.
    expect(kindColumns(IMPORT_SPECS.expenses, defs)).toBe(IMPORT_SPECS.expenses.columns);
  });

  it('writes them into the CSV template, quoted where a name needs it', () => {
    const csv = csvTemplate('sales', [def('f1', 'Lot, "no."', 'TEXT', { entity_types: ['Sale'] })]);
    expect(csv.toString('utf8')).toBe(
      '\ufeffSale Date,City,Agent,Product,Godown,Rate,Quantity,Clearing Charge,"Lot, ""no."""\r\n',
    );
  });

  it('reads yes-or-no and number cells as the API takes them', () => {
    const read = (value: unknown, type: 'boolean' | 'number') => readCell({ value } as never, type, 'M2');
    expect(read(true, 'boolean')).toEqual({ ok: true, text: 'true' });
    expect(read(false, 'boolean')).toEqual({ ok: true, text: 'false' });
    expect(read(' No ', 'boolean')).toEqual({ ok: true, text: 'false' });
    expect(read('YES', 'boolean')).toEqual({ ok: true, text: 'true' });
    expect(read('maybe', 'boolean')).toEqual({ ok: true, text: 'maybe' });
    expect(read(new Date(0), 'boolean')).toEqual({
      ok: false,
      msg: 'Cell M2 holds a date, where Yes or No is expected.',
    });
    expect(read(0.1, 'number')).toEqual({ ok: true, text: '0.1' });
    expect(read('1,00,000.5', 'number')).toEqual({ ok: true, text: '100000.5' });
    expect(read(true, 'number').ok).toBe(false);
  });
});

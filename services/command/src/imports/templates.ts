import type { ImportKind } from '@bahi/contracts';
import type { CustomFieldDefinition } from '@bahi/domain';
import type { CityLookup, MasterLookups } from './check.ts';
import { IMPORT_SPECS, kindColumns, type RefType } from './columns.ts';

// exceljs takes most of a second to load: loaded when a workbook is first made, not at start-up.
const loadExcel = async () => (await import('exceljs')).default;

/**
 * The template of a kind (issue #31): the sheet to fill (its header row only, so nothing but what
 * a person writes is imported), a Rules sheet (each column: required or not, its rule, an
 * example), an Example sheet (the header and one filled row) and, for kinds that name a city, a
 * Cities sheet of the cities in Bahi now, for looking names up. Purchases and sales have a
 * column for each custom field that applies to them (`masters.fieldDefinitions`).
 */
export async function xlsxTemplate(
  kind: ImportKind,
  cities: readonly CityLookup[],
  masters?: MasterLookups,
): Promise<Buffer> {
  const spec = { ...IMPORT_SPECS[kind], columns: kindColumns(IMPORT_SPECS[kind], masters?.fieldDefinitions) };
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = 'Bahi';
  const sheet = workbook.addWorksheet(spec.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = spec.columns.map((c) => ({
    header: c.header,
    key: c.field,
    width: Math.max(14, c.header.length + 4),
  }));
  sheet.getRow(1).font = { bold: true };
  spec.columns.forEach((c, i) => {
    const cell = sheet.getRow(1).getCell(i + 1);
    cell.note = `${c.required ? 'Required. ' : ''}${c.rule}`;
    // Amounts and names as text in the cells below: Excel then keeps "1,00,000" and leading zeros as typed.
    if (c.type === 'date') sheet.getColumn(i + 1).numFmt = 'yyyy-mm-dd';
  });

  const rules = workbook.addWorksheet('Rules');
  rules.columns = [
    { header: 'Column', width: 20 },
    { header: 'Required', width: 10 },
    { header: 'What goes in it', width: 90 },
    { header: 'Example', width: 20 },
  ];
  rules.getRow(1).font = { bold: true };
  for (const c of spec.columns) rules.addRow([c.header, c.required ? 'Yes' : 'No', c.rule, c.example]);
  rules.addRow([]);
  rules.addRow([
    'The file',
    '',
    `Fill the "${spec.sheet}" sheet: one ${spec.noun} per row under the header row. Cells that are merged or hold formulas are refused. Every row is checked before anything is saved, and the file is saved whole or not at all.`,
    '',
  ]);

  const example = workbook.addWorksheet('Example');
  example.columns = spec.columns.map((c) => ({ header: c.header, width: Math.max(14, c.header.length + 4) }));
  example.getRow(1).font = { bold: true };
  example.addRow(spec.columns.map((c) => c.example));

  if (spec.columns.some((c) => c.type === 'city')) {
    const look = workbook.addWorksheet('Cities');
    look.columns = [
      { header: 'Name', width: 24 },
      { header: 'Currency', width: 12 },
      { header: 'Id', width: 40 },
    ];
    look.getRow(1).font = { bold: true };
    for (const c of [...cities].sort((a, b) => a.name.localeCompare(b.name)))
      look.addRow([c.name, c.currency_name, c.id]);
  }
  if (masters?.refs) {
    // Transactions: every funder, agent, collector, product and godown a row may name, with its city.
    const look = workbook.addWorksheet('Masters');
    look.columns = [
      { header: 'Kind', width: 12 },
      { header: 'Name', width: 28 },
      { header: 'City', width: 20 },
      { header: 'Id', width: 40 },
    ];
    look.getRow(1).font = { bold: true };
    const cityName = new Map(cities.map((c) => [c.id, c.name]));
    // The kinds the template's columns name (a Party column: funders and agents).
    const named = new Set(
      spec.columns.flatMap((c) => (c.entityOf ? Object.values(c.entityOf.types) : [c.type])),
    );
    for (const [type, index] of Object.entries(masters.refs)) {
      if (!named.has(type as RefType)) continue;
      const rows = [...(index?.byId.values() ?? [])].sort((a, b) => a.name.localeCompare(b.name));
      for (const r of rows)
        look.addRow([
          type[0]!.toUpperCase() + type.slice(1),
          r.name,
          r.city_id ? (cityName.get(r.city_id) ?? '') : '',
          r.id,
        ]);
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A CSV field: quoted when it holds a separator, a quote or a line break (a custom field's name may). */
const csvField = (text: string) => (/[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * The CSV template: the header row alone (a CSV has one sheet; the rules are in the XLSX), with
 * a column for each custom field of purchases or sales among `definitions`.
 */
export function csvTemplate(kind: ImportKind, definitions: readonly CustomFieldDefinition[] = []): Buffer {
  const header = kindColumns(IMPORT_SPECS[kind], definitions)
    .map((c) => csvField(c.header))
    .join(',');
  return Buffer.from(`\ufeff${header}\r\n`, 'utf8');
}

import { randomUUID } from 'node:crypto';
import {
  type DomainEvent,
  IMPORT_MAX_ROWS,
  type ImportCellError,
  type ImportPreview,
  type ImportRow,
  parseEvent,
} from '@bahi/contracts';
import {
  AMOUNT_SCALE,
  add,
  type CustomFieldDefinition,
  type Dec,
  DomainError,
  format,
  initialMasterState,
  type MasterKind,
  masterDecider,
  masterStreamId,
  parseDecimal,
  requireStorable,
  zero,
} from '@bahi/domain';
import { readCell } from './cells.ts';
import {
  columnLetter,
  headerKey,
  type ImportColumn,
  type ImportKindSpec,
  kindColumns,
  REF_TYPES,
  type RefType,
} from './columns.ts';
import type { Sheet } from './read-file.ts';
import { type CityLookup, lookUpRef, nameKey, REF_KIND, type RefIndex, type RefLookup } from './refs.ts';
import { addAmount, type BookFacts } from './transaction-row.ts';
import { TRANSACTION_KINDS } from './transactions.ts';

export type { CityLookup };

/** The masters rows may name: the cities and, for a kind with such columns, the others by kind. */
export interface MasterLookups {
  cities: readonly CityLookup[];
  refs?: Partial<Record<RefType, RefIndex>>;
  /** The custom field definitions that stand: purchases and sales have a column for each that applies. */
  fieldDefinitions?: readonly CustomFieldDefinition[];
}

/** A master a row refers to: the commit reads each again under its lock (and a party's city). */
export interface RowRef {
  kind: Exclude<MasterKind, 'User' | 'CustomFieldDefinition'>;
  field: string;
  cityId: string | null;
  /** A city of a transaction: the rate and currency the rows were decided at. */
  rate?: string;
  currency?: string;
}

/** What the rows would record, once every row is right: one Create per row, decided as the API decides it. */
export interface CheckedRecord {
  row: number;
  id: string;
  streamId: string;
  events: DomainEvent[];
  data: Record<string, unknown>;
}

export interface CheckResult {
  columns: ImportPreview['columns'];
  fileErrors: ImportCellError[];
  rows: ImportRow[];
  records: CheckedRecord[];
  effect: ImportPreview['effect'];
  /** The masters the rows refer to, by id: the commit re-reads each under its lock. */
  refs: Map<string, RowRef>;
  /** The version each stream's append expects; a stream not here is new ('no_stream'). */
  expected: Map<string, bigint>;
}

export const emptyCheck = (): CheckResult => ({
  columns: [],
  fileErrors: [],
  rows: [],
  records: [],
  effect: null,
  refs: new Map(),
  expected: new Map(),
});

const fileError = (
  msg: string,
  cell?: { letter: string; row: number; column?: ImportColumn },
): ImportCellError => ({
  cell: cell ? `${cell.letter}${cell.row}` : null,
  column: cell?.letter ?? null,
  row: cell?.row ?? 0,
  field: cell?.column?.field ?? null,
  header: cell?.column?.header ?? null,
  msg,
});

type SheetRow = Sheet['rows'][number];
/** Where each column of the sheet is: column number -> the template's column. */
type ColumnsAt = Map<number, ImportColumn>;

/** What the rows share while they are checked: the cities by name and id, the effect so far. */
interface RowContext {
  spec: ImportKindSpec;
  at: ColumnsAt;
  citiesByName: Map<string, CityLookup[]>;
  citiesById: Map<string, CityLookup>;
  cityNames: Map<string, string>;
  refs: Partial<Record<RefType, RefIndex>>;
  facts: BookFacts | undefined;
  totals: Map<string, { records: number; sum: Dec }>;
  opening: NonNullable<ImportPreview['effect']>['opening_balances'];
}

/**
 * Every row of the sheet checked as POST /api/masters/<kind> checks one request: names looked up
 * where the API takes ids, the kind's request schema from @bahi/contracts, then the master
 * decider on a new stream and the storability check the append door applies. Nothing is written;
 * each problem is placed on its cell (column letter, row number, field).
 */
export async function checkSheet(
  sheet: Sheet,
  kindSpec: ImportKindSpec,
  masters: MasterLookups,
  facts?: BookFacts,
): Promise<CheckResult> {
  const { cities } = masters;
  // Purchases and sales: a column for each custom field that applies, as the template has it.
  const spec = { ...kindSpec, columns: kindColumns(kindSpec, masters.fieldDefinitions) };
  const result = emptyCheck();
  const [header, ...data] = sheet.rows;
  if (!header) {
    result.fileErrors.push(
      fileError(
        `The sheet is empty: its first row must hold the column names (${spec.columns.map((c) => c.header).join(', ')}).`,
      ),
    );
    return result;
  }
  const at = readHeader(header, spec, result);
  if (data.length > IMPORT_MAX_ROWS)
    result.fileErrors.push(
      fileError(
        `The file has ${data.length} rows; one import takes at most ${IMPORT_MAX_ROWS}. Split it into several files.`,
      ),
    );
  if (data.length === 0 && result.fileErrors.length === 0)
    result.fileErrors.push(fileError(`The sheet has no ${spec.noun} rows below its header row.`));
  if (result.fileErrors.length > 0) return result;

  const citiesByName = new Map<string, CityLookup[]>();
  for (const city of cities) {
    const key = nameKey(city.name);
    citiesByName.set(key, [...(citiesByName.get(key) ?? []), city]);
  }
  const context: RowContext = {
    spec,
    at,
    cityNames: new Map(cities.map((c) => [c.id, c.name])),
    citiesByName,
    citiesById: new Map(cities.map((c) => [c.id, c])),
    refs: masters.refs ?? {},
    facts,
    totals: new Map(),
    opening: [],
  };
  for (const row of data) await checkRow(row, context, result);
  if (result.rows.every((r) => r.outcome === 'ok')) {
    result.effect = {
      records: result.records.length,
      opening_balances: context.opening,
      totals: [...context.totals].map(([currency, t]) => ({
        currency,
        records: t.records,
        ...(spec.master
          ? { opening_balance: format(t.sum, AMOUNT_SCALE) }
          : { opening_balance: '0.00', amount: format(t.sum, AMOUNT_SCALE) }),
      })),
      accounts: [],
      stock: [],
    };
  }
  return result;
}

/** The header row: each known column once; every required column present; nothing unknown. */
function readHeader(header: SheetRow, spec: ImportKindSpec, result: CheckResult): ColumnsAt {
  const byKey = new Map(spec.columns.map((c) => [headerKey(c.header), c]));
  const at: ColumnsAt = new Map();
  const seen = new Map<string, string>();
  const maxCol = Math.max(0, ...header.cells.keys());
  for (let col = 1; col <= maxCol; col++) {
    const cell = header.cells.get(col);
    const letter = columnLetter(col);
    const text = cell?.value === null || cell?.value === undefined ? '' : String(cell.value).trim();
    if (text === '') continue;
    const column = byKey.get(headerKey(text));
    if (!column) {
      result.fileErrors.push(
        fileError(
          `Column ${letter} is headed "${text.slice(0, 60)}", which is not a column of the ${spec.noun} template (${spec.columns.map((c) => c.header).join(', ')}).`,
          { letter, row: header.number },
        ),
      );
      continue;
    }
    const earlier = seen.get(column.field);
    if (earlier) {
      result.fileErrors.push(
        fileError(`Columns ${earlier} and ${letter} are both "${column.header}": keep one.`, {
          letter,
          row: header.number,
          column,
        }),
      );
      continue;
    }
    seen.set(column.field, letter);
    at.set(col, column);
    result.columns.push({ header: column.header, field: column.field, letter });
  }
  for (const column of spec.columns) {
    if (column.required && !seen.has(column.field))
      result.fileErrors.push(
        fileError(`The column "${column.header}" is missing from row ${header.number}: it is required.`),
      );
  }
  return at;
}

/** One data row: its cells read, the request schema, then the decider; the outcome added to `result`. */
async function checkRow({ number, cells }: SheetRow, context: RowContext, result: CheckResult) {
  const { spec } = context;
  const { values, input, city, parties, errors } = readRowCells(number, cells, context);
  // The kind's request schema, as the API parses the body: its messages, placed on the cells.
  const parsed = spec.input.safeParse(input);
  if (!parsed.success) errors.push(...schemaErrors(number, parsed.error.issues, context, errors));
  // A row refused before its decision still has its custom field values checked, so one upload
  // shows every wrong cell (the decision checks them again, where the handler does).
  if (errors.length > 0 && spec.customFields && context.facts)
    errors.push(...customFieldErrors(number, input, context, errors));
  if (errors.length === 0 && parsed.success) {
    try {
      if (spec.master) decideRow(number, parsed.data as Record<string, unknown>, city, context, result);
      else
        await transactionRow(number, parsed.data as Record<string, unknown>, city, parties, context, result);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const refusal = error as DomainError & { errors?: Array<{ msg: string; path?: string }> };
      const list = refusal.errors?.length ? refusal.errors : [{ msg: refusal.message, path: '' }];
      // On the cell of the field the refusal names (the close on the date, the stock on the quantity).
      for (const e of list) errors.push(onField(number, e.path ?? '', e.msg, context));
    }
  }
  result.rows.push({ row: number, outcome: errors.length ? 'error' : 'ok', values, errors });
}

/** A row's cells: the values as shown, the request they make (cities by name), the cells refused. */
function readRowCells(number: number, cells: SheetRow['cells'], context: RowContext) {
  const { at } = context;
  const errors: ImportCellError[] = [];
  const values: Record<string, string> = {};
  const input: Record<string, unknown> = {};
  // The custom field values by definition id, as the API's `custom_fields` takes them.
  const custom: Record<string, string> = {};
  if (context.spec.customFields) input.custom_fields = custom;
  let city: CityLookup | undefined;
  const parties = new Map<string, RefLookup>();
  const where = (column: ImportColumn, letter: string) => ({ letter, row: number, column });
  for (const [col, cell] of cells) {
    const column = at.get(col);
    const letter = columnLetter(col);
    if (!column) {
      if (cell.value !== null && String(cell.value).trim() !== '')
        errors.push(
          fileError(`Cell ${letter}${number} has a value under no column heading.`, {
            letter,
            row: number,
          }),
        );
      continue;
    }
    if (cell.value !== null && cell.value !== undefined)
      values[column.header] =
        cell.value instanceof Date ? cell.value.toISOString().slice(0, 10) : String(cell.value).trim();
  }
  // The city and the plain cells first (a Party Type before its Party), then the names in column
  // order: a party among those of the row's city, or else of the party named before it.
  const ordered = [...at].sort(([, a], [, b]) => Number(isRef(a)) - Number(isRef(b)));
  for (const [col, column] of ordered) {
    const letter = columnLetter(col);
    const reading = readCell(cells.get(col), column.type, `${letter}${number}`);
    if (!reading.ok) {
      errors.push(fileError(reading.msg, where(column, letter)));
      continue;
    }
    if (reading.text === undefined) continue;
    if (column.custom) {
      custom[column.custom.id] = column.choices ? choice(reading.text, column.choices) : reading.text;
      continue;
    }
    if (column.type === 'city') {
      const found = lookUpCity(reading.text, context.citiesByName, context.citiesById);
      if (typeof found === 'string') errors.push(fileError(found, where(column, letter)));
      else {
        city = found;
        input[column.field] = found.id;
      }
      continue;
    }
    if (isRef(column)) {
      const type = refTypeOf(column, input);
      if (type === undefined) {
        const kindColumn = context.spec.columns.find((c) => c.field === column.entityOf?.field);
        if (!errors.some((e) => e.field === column.entityOf?.field))
          errors.push(
            fileError(
              `"${reading.text.slice(0, 60)}" cannot be looked up: write ${(kindColumn?.choices ?? []).join(' or ')} in the ${kindColumn?.header ?? ''} column.`,
              where(column, letter),
            ),
          );
        continue;
      }
      const index = context.refs[type] ?? { byId: new Map(), byName: new Map() };
      const anchor = city ?? partyCity(parties, context.citiesById);
      const found = lookUpRef(type, reading.text, anchor, index, context.cityNames);
      if (typeof found === 'string') errors.push(fileError(found, where(column, letter)));
      else {
        parties.set(column.field, found);
        input[column.field] = found.id;
      }
      continue;
    }
    input[column.field] = column.choices ? choice(reading.text, column.choices) : reading.text;
  }
  return { values, input, city, parties, errors };
}

const isRef = (column: ImportColumn) =>
  column.type === 'entity' || (REF_TYPES as readonly string[]).includes(column.type);
/** The master kind a ref column names: its own, or (an entity column) the one its kind column gives. */
function refTypeOf(column: ImportColumn, input: Record<string, unknown>): RefType | undefined {
  if (!column.entityOf) return column.type as RefType;
  const kind = input[column.entityOf.field];
  return typeof kind === 'string' ? column.entityOf.types[kind.toLowerCase()] : undefined;
}
/** The city of the first party (funder, agent, collector) the row named: where its other parties are looked up. */
function partyCity(
  parties: ReadonlyMap<string, RefLookup>,
  citiesById: ReadonlyMap<string, CityLookup>,
): CityLookup | undefined {
  for (const party of parties.values()) {
    const city = party.city_id ? citiesById.get(party.city_id) : undefined;
    if (city) return city;
  }
  return undefined;
}
const isLookup = (column: ImportColumn | undefined) => column?.type === 'city' || (!!column && isRef(column));
/** "godown" and "GODOWN" read as Godown: one of the choices, whatever its case; otherwise as written. */
const choice = (text: string, choices: readonly string[]) =>
  choices.find((c) => c.toLowerCase() === text.toLowerCase()) ?? text;

/** A message about a field of a row, on that field's cell when the sheet has its column. */
function onField(number: number, field: string, msg: string, { at, spec }: RowContext): ImportCellError {
  const col = [...at].find(([, c]) => c.field === field)?.[0];
  const column = spec.columns.find((c) => c.field === field);
  const letter = col ? columnLetter(col) : null;
  return {
    cell: letter ? `${letter}${number}` : null,
    column: letter,
    row: number,
    field: field || null,
    header: column?.header ?? null,
    msg,
  };
}

/** The request schema's issues, each on its cell (a city cell refused already is not refused again). */
function schemaErrors(
  number: number,
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  { at, spec }: RowContext,
  already: readonly ImportCellError[],
): ImportCellError[] {
  const errors: ImportCellError[] = [];
  for (const issue of issues) {
    // A custom field's value (custom_fields.<id>) on its own column's cell.
    const field = issue.path
      .slice(0, issue.path[0] === 'custom_fields' && issue.path.length > 1 ? 2 : 1)
      .map(String)
      .join('.');
    const col = [...at].find(([, c]) => c.field === field)?.[0];
    const column = spec.columns.find((c) => c.field === field);
    if (isLookup(column) && already.some((e) => e.field === field)) continue;
    const letter = col ? columnLetter(col) : null;
    const msg =
      isLookup(column) && column?.required && !col
        ? `The "${column.header}" column is required`
        : issue.message;
    errors.push({
      cell: letter ? `${letter}${number}` : null,
      column: letter,
      row: number,
      field: field || null,
      header: column?.header ?? null,
      msg:
        column?.type === 'city' && /^Choose/.test(msg)
          ? `${column.header} is required: the name of a city in Bahi`
          : msg,
    });
  }
  return errors;
}

/** The API's refusal of a row's custom field values, each on its cell (a cell refused already is not refused again). */
function customFieldErrors(
  number: number,
  input: Record<string, unknown>,
  context: RowContext,
  already: readonly ImportCellError[],
): ImportCellError[] {
  try {
    context.facts!.customFields((input.custom_fields ?? {}) as Record<string, unknown>);
    return [];
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return (error.errors ?? [{ msg: error.message, path: 'custom_fields' }])
      .filter((e) => !already.some((a) => a.field === e.path))
      .map((e) => onField(number, e.path ?? '', e.msg, context));
  }
}

/** A valid row decided as the API decides a Create (throws the decider's refusal); its effect noted. */
function decideRow(
  number: number,
  fields: Record<string, unknown>,
  city: CityLookup | undefined,
  context: RowContext,
  result: CheckResult,
): void {
  const { spec } = context;
  const master = spec.master!;
  const id = randomUUID();
  const data = { id, ...fields };
  const events = masterDecider(master).decide({ type: 'Create', data } as never, initialMasterState());
  for (const event of events) {
    parseEvent(event.type, event.data);
    requireStorable(event);
  }
  result.records.push({ row: number, id, streamId: masterStreamId(master, id), events, data });
  if (city) result.refs.set(city.id, { kind: 'City', field: 'city_id', cityId: null });
  if (!spec.balances) return;
  const amount = String((fields as { opening_balance?: string }).opening_balance ?? '0.00');
  const currency = city?.currency_name ?? 'INR';
  const total = context.totals.get(currency) ?? { records: 0, sum: zero(AMOUNT_SCALE) };
  total.records++;
  total.sum = add(total.sum, parseDecimal(amount));
  context.totals.set(currency, total);
  context.opening.push({
    row: number,
    name: String(fields.name),
    city: city?.name ?? null,
    currency: city?.currency_name ?? null,
    before: '0.00',
    after: format(parseDecimal(amount), AMOUNT_SCALE),
  });
}

/** A transaction row decided as the API decides it; the masters it names kept for the commit's locks. */
async function transactionRow(
  number: number,
  input: Record<string, unknown>,
  city: CityLookup | undefined,
  parties: Map<string, RefLookup>,
  context: RowContext,
  result: CheckResult,
): Promise<void> {
  const decide = TRANSACTION_KINDS[context.spec.kind]!;
  const decided = await decide({
    input: input as never,
    city,
    parties: (field) => parties.get(field),
    cities: context.citiesById,
    facts: context.facts!,
  });
  result.records.push({
    row: number,
    id: decided.id,
    streamId: decided.streamId,
    events: decided.events,
    data: decided.data,
  });
  if (decided.expected !== 'no_stream' && !result.expected.has(decided.streamId))
    result.expected.set(decided.streamId, decided.expected);
  if (city && !result.refs.has(city.id))
    result.refs.set(city.id, { kind: 'City', field: 'city_id', cityId: null });
  const rated = decided.rateCity;
  if (rated)
    result.refs.set(rated.id, {
      kind: 'City',
      field: 'city_id',
      cityId: null,
      rate: rated.rate,
      currency: rated.currency_name,
    });
  for (const column of context.spec.columns) {
    const found = isRef(column) ? parties.get(column.field) : undefined;
    // A master the schema dropped (an agent of a Godown purchase, a godown of a Currency payment) is not recorded.
    if (!found || decided.data[column.field] !== found.id) continue;
    const kind = REF_KIND[refTypeOf(column, input)!];
    result.refs.set(found.id, {
      kind,
      field: column.field,
      cityId: kind === 'Product' || kind === 'Godown' ? null : found.city_id,
    });
  }
  addAmount(context.totals, decided.currency, decided.amount);
}

/** A city by its id or its name; a message naming the candidates when none or several match. */
function lookUpCity(
  text: string,
  byName: Map<string, CityLookup[]>,
  byId: Map<string, CityLookup>,
): CityLookup | string {
  const byIdHit = byId.get(text.toLowerCase());
  if (byIdHit) return byIdHit;
  const matches = byName.get(nameKey(text)) ?? [];
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1)
    return `${matches.length} cities are named "${text}": ${matches.map((c) => `${c.name} (${c.currency_name}, id ${c.id})`).join('; ')}. Write the id of the one you mean instead of the name.`;
  const known = [...byName.values()].flat().map((c) => c.name);
  const shown = known.slice(0, 10).join(', ');
  return `No city is named "${text.slice(0, 60)}" in Bahi${known.length ? ` (cities: ${shown}${known.length > 10 ? ', …' : ''})` : ' (there are no cities yet: import or add them first)'}.`;
}

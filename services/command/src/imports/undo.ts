import {
  booksClosedMessage,
  type DomainEvent,
  type ImportKind,
  type ImportUndoAnswer,
  importStreamId,
  parseEvent,
} from '@bahi/contracts';
import {
  cashEntryDecider,
  conflict,
  DomainError,
  datesARecord,
  directPurchaseDecider,
  inventoryDecider,
  MASTER_KINDS,
  type MasterKind,
  masterDecider,
  paymentDeletionDecider,
  type RecordDates,
  recordDateOf,
} from '@bahi/domain';
import { type RecordedEvent, WrongExpectedVersionError } from '@bahi/event-store';
import { appendToLog, HttpError, type LogEvent } from '@bahi/server-kit';
import { closedUpTo } from '../books-close.ts';
import type { CommandDeps } from '../deps.ts';
import type { RequestMeta } from '../execute.ts';
import { referencesTo } from '../handlers/masters.ts';
import { holdExclusive, masterLock, writeScopes } from '../write-scope.ts';
import { IMPORT_SPECS } from './columns.ts';
import { findUpload, markUndone } from './store.ts';

/**
 * Undoing a committed import as a whole (issue #31): every record it created reversed by the
 * events the API's own delete appends for it (a master's `<Kind>Deleted`, a purchase's
 * `PurchaseDeleted` with its postings and stock reversed), decided by the same deciders on the
 * streams as they stand, and appended with `ImportUndone` in ONE database transaction - all or
 * none, as the commit. Refused, naming the first record concerned, while any record has a later
 * reference: an edit or anything else later in its own stream, a record that names it (a payment
 * to an imported funder, a purchase of an imported product), a sale of stock an imported purchase
 * brought in; and, by the close guard, while the books are closed over any of its dates. Imported
 * payments are reversed by `PaymentDeleted`, which nothing but this undo appends.
 */

/** What an import appended to one stream, with what came after it there. */
export interface ImportedStream {
  streamId: string;
  /** The whole stream as it stands, parsed, in order. */
  recorded: DomainEvent[];
  /** The import's events in it. */
  imported: DomainEvent[];
  /** Everything appended to it after the import's events. */
  later: DomainEvent[];
}

/** One record's reversal: its events, and how a refusal names it. */
export interface RecordReversal {
  label: string;
  events: DomainEvent[];
}

/**
 * A kind's reversal hook: the reversal of the records the import appended to one stream,
 * decided on the stream as it stands; throws `blocked(...)` naming the first record a later
 * event refers to. Every import kind has one (a new kind adds its own here).
 */
export interface UndoKind {
  reverse(deps: CommandDeps, stream: ImportedStream): Promise<RecordReversal[]>;
}

const refused = (message: string) => conflict(`This import cannot be undone: ${message}`);

/** A decider's refusal of a record's reversal, naming the record. */
function decided(label: string, decide: () => DomainEvent[]): DomainEvent[] {
  try {
    return decide();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw refused(`${label}: ${error.message}`);
  }
}

/** A later event, in a refusal's words. */
function laterEvent(event: DomainEvent): string {
  const dated = recordDateOf(event);
  const on = dated?.date ? ` dated ${dated.date}` : '';
  const words = event.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words}${on}${dated ? ` (id ${dated.id})` : ''}`;
}

/**
 * Each record deleted on its godown's stream by `command`, the last imported first (each delete
 * decided on the state the ones after it left: a later purchase's units may be what an earlier
 * sale needed).
 */
function deleteOnGodown<R extends { id: string }>(
  stream: ImportedStream,
  records: readonly R[],
  label: (record: R) => string,
  command: (id: string) => Parameters<typeof inventoryDecider.decide>[0],
): RecordReversal[] {
  const state = stream.recorded.reduce(inventoryDecider.evolve, inventoryDecider.initialState());
  return [...records].reverse().map((record) => {
    const events = decided(label(record), () => inventoryDecider.decide(command(record.id), state));
    for (const e of events) inventoryDecider.evolve(state, e);
    return { label: label(record), events };
  });
}

/** Each master kind: its Created undone by its Delete, while nothing refers to it and it was not changed since. */
const masterUndo = (kind: Exclude<MasterKind, 'User' | 'CustomFieldDefinition'>): UndoKind => ({
  async reverse(deps, stream) {
    const created = stream.imported.find((e) => e.type === `${kind}Created`);
    if (!created) throw new Error(`${stream.streamId}: the import appended no ${kind}Created`);
    const data = created.data as { id: string; name?: string };
    const label = `${MASTER_KINDS[kind].label} "${data.name ?? data.id}"`;
    const later = stream.later[0];
    if (later) throw refused(`${label} was changed after the import (${laterEvent(later)}).`);
    // Exclusive, as its delete holds it: no request that read it is between its read and its append.
    await holdExclusive(masterLock(data.id));
    const references = (await referencesTo(deps, data.id)).filter((r) => r.count > 0);
    if (references.length)
      throw refused(
        `${label} is referred to by ${references.map((r) => `${r.count} ${r.kind.toLowerCase()} record${r.count === 1 ? '' : 's'}`).join(', ')} recorded after the import.`,
      );
    const decider = masterDecider(kind);
    const state = stream.recorded.reduce(decider.evolve, decider.initialState());
    return [
      {
        label,
        events: decided(label, () => decider.decide({ type: 'Delete', id: data.id, references: [] }, state)),
      },
    ];
  },
});

type Purchase = Extract<DomainEvent, { type: 'PurchaseRecorded' }>['data']['purchase'];
const purchaseLabel = (p: Purchase) => `the purchase dated ${p.purchase_date} of ${p.quantity} (id ${p.id})`;

/** The purchase a later event on its stream is about, if it is about one. */
function purchaseOf(event: DomainEvent): string | undefined {
  switch (event.type) {
    case 'PurchaseUpdated':
      return event.data.purchase.id;
    case 'PurchaseDeleted':
      return event.data.id;
    case 'PurchaseReturned':
      return event.data.purchase_return.purchase_id;
    default:
      return undefined;
  }
}

/**
 * Purchases: each undone by its DeletePurchase, the last imported first. On a godown's stream,
 * refused while a later event is about one of them, or a later sale took out a product the
 * import brought into that godown (its cost was averaged over the imported stock); the decider
 * itself refuses when the godown no longer holds the units. A direct purchase's stream is its own:
 * anything later in it refuses.
 */
const purchasesUndo: UndoKind = {
  async reverse(_deps, stream) {
    const purchases = stream.imported.flatMap((e) =>
      e.type === 'PurchaseRecorded' ? [e.data.purchase] : [],
    );
    const byId = new Map(purchases.map((p) => [p.id, p]));
    const products = new Set(purchases.map((p) => p.product_id));
    const inventory = stream.streamId.startsWith('inventory-');
    // The sales that stand now (a sale deleted since took back exactly what it posted).
    const standing = inventory
      ? stream.recorded.reduce(inventoryDecider.evolve, inventoryDecider.initialState()).sales
      : new Map();
    for (const later of stream.later) {
      const about = byId.get(purchaseOf(later) ?? '');
      if (about)
        throw refused(`${purchaseLabel(about)} was changed after the import (${laterEvent(later)}).`);
      if (
        (later.type === 'SaleRecorded' || later.type === 'SaleUpdated') &&
        products.has(later.data.sale.product_id) &&
        standing.has(later.data.sale.id)
      ) {
        const first = purchases.find((p) => p.product_id === later.data.sale.product_id)!;
        throw refused(
          `${purchaseLabel(first)} brought in stock that a sale recorded after the import took out of the godown (${laterEvent(later)}).`,
        );
      }
    }
    if (!inventory && stream.later[0])
      throw refused(
        `${purchaseLabel(purchases[0]!)} was changed after the import (${laterEvent(stream.later[0])}).`,
      );
    if (inventory)
      return deleteOnGodown(stream, purchases, purchaseLabel, (id) => ({ type: 'DeletePurchase', id }));
    const state = stream.recorded.reduce(directPurchaseDecider.evolve, directPurchaseDecider.initialState());
    return purchases.map((p) => ({
      label: purchaseLabel(p),
      events: decided(purchaseLabel(p), () =>
        directPurchaseDecider.decide({ type: 'DeletePurchase', id: p.id }, state),
      ),
    }));
  },
};

type Sale = Extract<DomainEvent, { type: 'SaleRecorded' }>['data']['sale'];
const saleLabel = (s: Sale) => `the sale dated ${s.sale_date} of ${s.quantity} (id ${s.id})`;

/** The sale a later event on its godown's stream is about, if it is about one. */
function saleOf(event: DomainEvent): string | undefined {
  switch (event.type) {
    case 'SaleUpdated':
      return event.data.sale.id;
    case 'SaleDeleted':
      return event.data.id;
    case 'SaleReturned':
      return event.data.sale_return.sale_id;
    default:
      return undefined;
  }
}

/**
 * Sales: each undone by its DeleteSale on the godown's stream, the last imported first (its
 * units go back into the godown). Refused while a later event is about one of them (an edit, a
 * return, a delete); the decider itself refuses when its clearing charge was paid out since.
 */
const salesUndo: UndoKind = {
  async reverse(_deps, stream) {
    const sales = stream.imported.flatMap((e) => (e.type === 'SaleRecorded' ? [e.data.sale] : []));
    const byId = new Map(sales.map((s) => [s.id, s]));
    for (const later of stream.later) {
      const about = byId.get(saleOf(later) ?? '');
      if (about) throw refused(`${saleLabel(about)} was changed after the import (${laterEvent(later)}).`);
    }
    return deleteOnGodown(stream, sales, saleLabel, (id) => ({ type: 'DeleteSale', id }));
  },
};

/** Expenses and incomes: each in a stream of its own, undone by its Delete while nothing came after it. */
const cashEntryUndo = (kind: 'Expense' | 'Income'): UndoKind => ({
  async reverse(_deps, stream) {
    const recorded = stream.imported.find((e) => e.type === `${kind}Recorded`);
    if (!recorded) throw new Error(`${stream.streamId}: the import appended no ${kind}Recorded`);
    const entry = (recorded.data as unknown as { entry: Record<string, string> & { id: string } }).entry;
    const date = entry[`${kind.toLowerCase()}_date`];
    const label = `the ${kind.toLowerCase()}${date ? ` dated ${date}` : ''} of ${entry.amount} (id ${entry.id})`;
    const later = stream.later[0];
    if (later) throw refused(`${label} was changed after the import (${laterEvent(later)}).`);
    const decider = cashEntryDecider(kind);
    const state = stream.recorded.reduce(decider.evolve, decider.initialState());
    return [{ label, events: decided(label, () => decider.decide({ type: 'Delete', id: entry.id }, state)) }];
  },
});

/**
 * Payments: each in a stream of its own, undone by `PaymentDeleted` (its postings reversed) while
 * nothing came after it. The API keeps no delete for a payment (one is put right by a payment the
 * other way); the undo of the import that brought it in is the one reversal the books allow.
 */
const paymentsUndo: UndoKind = {
  async reverse(_deps, stream) {
    const recorded = stream.imported.find((e) => e.type === 'PaymentRecorded');
    if (recorded?.type !== 'PaymentRecorded')
      throw new Error(`${stream.streamId}: the import appended no PaymentRecorded`);
    const p = recorded.data.payment;
    const direction = p.related_entity_type === 'Funder' ? 'to a funder' : 'from an agent';
    const label = `the payment ${direction} dated ${p.payment_date} of ${p.amount} (id ${p.id})`;
    const later = stream.later[0];
    if (later) throw refused(`${label} was changed after the import (${laterEvent(later)}).`);
    const state = stream.recorded.reduce(
      paymentDeletionDecider.evolve,
      paymentDeletionDecider.initialState(),
    );
    return [
      {
        label,
        events: decided(label, () => paymentDeletionDecider.decide({ type: 'Delete', id: p.id }, state)),
      },
    ];
  },
};

/** The reversal hook of every import kind. */
export const UNDO_KINDS: Record<ImportKind, UndoKind> = {
  cities: masterUndo('City'),
  products: masterUndo('Product'),
  funders: masterUndo('Funder'),
  agents: masterUndo('Agent'),
  collectors: masterUndo('Collector'),
  godowns: masterUndo('Godown'),
  purchases: purchasesUndo,
  sales: salesUndo,
  payments: paymentsUndo,
  expenses: cashEntryUndo('Expense'),
  incomes: cashEntryUndo('Income'),
};

/**
 * POST /api/imports/{id}/undo: every record the import created reversed, all or none; the
 * reversals and `ImportUndone` carry the import's id and `importUndo` in their metadata.
 */
export async function undoImport(
  deps: CommandDeps,
  id: string,
  meta: RequestMeta,
): Promise<ImportUndoAnswer> {
  const upload = await findUpload(deps.sql, id);
  if (!upload) throw new HttpError(404, 'There is no such import.');
  if (upload.undone_at)
    throw new HttpError(409, `This import was already undone (at ${upload.undone_at}). Nothing was changed.`);
  if (!upload.committed_at)
    throw new HttpError(409, 'This import was never committed: there is nothing to undo.');
  if (!upload.committed_streams)
    throw new HttpError(
      409,
      'This import was committed before imports could be undone: Bahi did not keep what it appended. Delete its records one by one instead.',
    );
  if (deps.eventStore.kind === 'eventstoredb')
    throw new HttpError(
      409,
      'Undoing an import needs the Postgres event store (one transaction for the whole file); this server runs on EventStoreDB.',
    );
  const kind = upload.kind as ImportKind;
  const hook = UNDO_KINDS[kind];
  // Read under the books' shared lock, held until the request ends, as every dated write reads it.
  const closed = IMPORT_SPECS[kind].master ? null : await closedUpTo(deps.eventStore, writeScopes.getStore());
  const appends: Array<{ streamId: string; expected: bigint; events: DomainEvent[] }> = [];
  let records = 0;
  // The last stream the commit appended to first: the reverse of the commit's order.
  for (const s of [...upload.committed_streams].reverse()) {
    const stored = await deps.eventStore.readStream(s.stream);
    const [from, to] = [BigInt(s.from), BigInt(s.to)];
    const mine = stored.filter((e) => e.streamVersion >= from && e.streamVersion <= to);
    if (mine.length === 0 || mine.some((e) => e.metadata.importId !== upload.id))
      throw new Error(`${s.stream} ${s.from}..${s.to}: not the events of import ${upload.id}`);
    const parse = (e: RecordedEvent) => parseEvent(e.type, e.data);
    const stream: ImportedStream = {
      streamId: s.stream,
      recorded: stored.map(parse),
      imported: mine.map(parse),
      later: stored.filter((e) => e.streamVersion > to).map(parse),
    };
    const reversals = await hook.reverse(deps, stream);
    // The close guard, as every write of a dated record passes it, naming the record.
    const dates: RecordDates = new Map();
    for (const e of stream.recorded) {
      const dated = recordDateOf(e);
      if (dated?.date) dates.set(dated.id, dated.date);
      else if (dated) dates.delete(dated.id);
    }
    for (const r of reversals)
      if (closed && datesARecord(r.events))
        for (const e of r.events) {
          const date = dates.get(recordDateOf(e)?.id ?? '');
          if (date && date <= closed)
            throw refused(`${r.label} is dated ${date}. ${booksClosedMessage(closed)}`);
        }
    records += reversals.length;
    appends.push({
      streamId: s.stream,
      expected: stored.at(-1)!.streamVersion,
      events: reversals.flatMap((r) => r.events),
    });
  }
  const metadata: NonNullable<LogEvent['metadata']> = {
    userId: meta.userId,
    correlationId: meta.correlationId,
    causationId: meta.causationId,
    importId: upload.id,
    importFile: upload.file_name,
    importUndo: true,
  };
  const fileStream = importStreamId(upload.sha256);
  const fileLast = (await deps.eventStore.readStream(fileStream)).at(-1);
  if (fileLast?.type !== 'ImportCommitted' || (fileLast.data as { id?: string }).id !== upload.id)
    throw new HttpError(409, 'This import was already undone. Nothing was changed.');
  let events = 0;
  try {
    const position = await deps.sql.transaction(async (tx) => {
      let last = 0n;
      for (const a of appends) {
        if (a.events.length === 0) continue;
        const result = await appendToLog(
          deps.eventStore,
          a.streamId,
          a.events.map((e): LogEvent => ({ ...e, metadata })),
          a.expected,
          { via: tx },
        );
        events += a.events.length;
        last = result.position;
      }
      const undone = await appendToLog(
        deps.eventStore,
        fileStream,
        [
          {
            type: 'ImportUndone',
            data: { id: upload.id, kind, file_name: upload.file_name, sha256: upload.sha256, records },
            metadata,
          },
        ],
        fileLast.streamVersion,
        { via: tx },
      );
      events += 1;
      last = undone.position;
      if (!(await markUndone(tx, upload.id, meta.userId, last.toString(), events)))
        throw new HttpError(409, 'This import was already undone. Nothing was changed.');
      return last;
    });
    return { id: upload.id, position: position.toString(), records, events };
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    throw conflict(
      'Someone changed a record of this import, or undid it, while it was being undone. Nothing was undone: try again.',
    );
  }
}

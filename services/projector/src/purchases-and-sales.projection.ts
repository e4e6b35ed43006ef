import type { Database } from '@bahi/read-db';
import { type Insertable, sql, type Transaction } from 'kysely';
import { chunks, insertRows } from './batch.ts';
import type { Projection } from './projection.ts';

type Rec = Record<string, unknown>;

/**
 * What a batch does to one table of records: rows written (recorded or edited; the last edit
 * wins, the first write's time stays) and, apart from them, quantities returned and deletes.
 * Edits never touch returned quantities nor the deleted flag, so applying the rows first and
 * the returns and deletes after gives what applying the events one by one gives.
 */
export class RecordChanges<T extends 'purchases' | 'sales' | 'cash_records'> {
  readonly #rows = new Map<string, Insertable<Database[T]>>();
  readonly #returned: Array<{ id: string; quantity: string }> = [];
  readonly #deleted = new Set<string>();

  constructor(readonly table: T) {}

  write(id: string, row: Insertable<Database[T]>): void {
    const earlier = this.#rows.get(id) as { created_at?: unknown } | undefined;
    this.#rows.set(id, earlier ? { ...row, created_at: earlier.created_at } : row);
  }

  returned(id: string, quantity: string): void {
    this.#returned.push({ id, quantity });
  }

  deleted(id: string): void {
    this.#deleted.add(id);
  }

  async apply(tx: Transaction<Database>): Promise<void> {
    const rows = [...this.#rows.values()];
    if (rows.length > 0) {
      const columns = Object.keys(rows[0] as object).filter((c) => c !== 'id' && c !== 'created_at');
      await insertRows(tx, this.table, rows, (q) =>
        q.onConflict((oc: { column(c: string): { doUpdateSet(u: unknown): unknown } }) =>
          oc.column('id').doUpdateSet(Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)]))),
        ),
      );
    }
    if (this.#returned.length > 0) {
      for (const part of chunks(this.#returned, 10_000)) {
        const values = sql.join(part.map((r) => sql`(${r.id}::uuid, ${r.quantity}::numeric)`));
        await sql`UPDATE ${sql.table(this.table)} t SET returned_quantity = t.returned_quantity + v.quantity
          FROM (SELECT id, sum(quantity) AS quantity FROM (VALUES ${values}) AS r(id, quantity) GROUP BY id) v
          WHERE t.id = v.id`.execute(tx);
      }
    }
    for (const ids of chunks([...this.#deleted])) {
      await sql`UPDATE ${sql.table(this.table)} SET deleted = true WHERE id IN (${sql.join(ids)})`.execute(
        tx,
      );
    }
  }
}

/** Purchases and sales as rows, with what has been returned of each. */
export const purchasesAndSales: Projection = {
  name: 'purchases_and_sales',
  tables: ['purchases', 'sales'],
  async apply(tx, events) {
    const purchases = new RecordChanges('purchases');
    const sales = new RecordChanges('sales');
    for (const event of events) {
      const d = event.data as Rec;
      const at = event.metadata.recordedAt;
      switch (event.type) {
        case 'PurchaseRecorded':
        case 'PurchaseUpdated': {
          const p = d.purchase as Rec;
          purchases.write(p.id as string, {
            id: p.id as string,
            type: p.type as 'Godown',
            purchase_date: p.purchase_date as string,
            city_id: p.city_id as string,
            funder_id: p.funder_id as string,
            product_id: p.product_id as string,
            godown_id: p.godown_id as string | null,
            collector_id: p.collector_id as string | null,
            agent_id: p.agent_id as string | null,
            rate: p.rate as string,
            quantity: p.quantity as string,
            paid_amount: p.paid_amount as string,
            commission: p.commission as string,
            custom_fields: JSON.stringify(p.custom_fields ?? {}),
            created_at: at,
          });
          break;
        }
        case 'PurchaseReturned': {
          const r = d.purchase_return as Rec;
          purchases.returned(r.purchase_id as string, r.quantity as string);
          break;
        }
        case 'PurchaseDeleted':
          purchases.deleted(d.id as string);
          break;
        case 'SaleRecorded':
        case 'SaleUpdated': {
          const s = d.sale as Rec;
          sales.write(s.id as string, {
            id: s.id as string,
            sale_date: s.sale_date as string,
            agent_id: s.agent_id as string,
            agent_city_id: d.agent_city_id as string,
            product_id: s.product_id as string,
            godown_id: s.godown_id as string,
            rate: s.rate as string,
            quantity: s.quantity as string,
            clearing_charge: s.clearing_charge as string,
            custom_fields: JSON.stringify(s.custom_fields ?? {}),
            created_at: at,
          });
          break;
        }
        case 'SaleReturned': {
          const r = d.sale_return as Rec;
          sales.returned(r.sale_id as string, r.quantity as string);
          break;
        }
        case 'SaleDeleted':
          sales.deleted(d.id as string);
          break;
      }
    }
    await purchases.apply(tx);
    await sales.apply(tx);
  },
};

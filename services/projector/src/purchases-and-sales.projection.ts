import { sql } from 'kysely';
import type { Projection } from './projection.ts';

type Rec = Record<string, unknown>;

/** Purchases and sales as rows, with what has been returned of each. */
export const purchasesAndSales: Projection = {
  name: 'purchases_and_sales',
  tables: ['purchases', 'sales'],
  async apply(tx, events) {
    for (const event of events) {
      const d = event.data as Rec;
      const at = event.metadata.recordedAt;
      switch (event.type) {
        case 'PurchaseRecorded':
        case 'PurchaseUpdated': {
          const p = d.purchase as Rec;
          const row = {
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
          };
          await tx
            .insertInto('purchases')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'PurchaseReturned': {
          const r = d.purchase_return as Rec;
          await tx
            .updateTable('purchases')
            .set({ returned_quantity: sql`returned_quantity + ${r.quantity as string}::numeric` })
            .where('id', '=', r.purchase_id as string)
            .execute();
          break;
        }
        case 'PurchaseDeleted':
          await tx
            .updateTable('purchases')
            .set({ deleted: true })
            .where('id', '=', d.id as string)
            .execute();
          break;
        case 'SaleRecorded':
        case 'SaleUpdated': {
          const s = d.sale as Rec;
          const row = {
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
          };
          await tx
            .insertInto('sales')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'SaleReturned': {
          const r = d.sale_return as Rec;
          await tx
            .updateTable('sales')
            .set({ returned_quantity: sql`returned_quantity + ${r.quantity as string}::numeric` })
            .where('id', '=', r.sale_id as string)
            .execute();
          break;
        }
        case 'SaleDeleted':
          await tx
            .updateTable('sales')
            .set({ deleted: true })
            .where('id', '=', d.id as string)
            .execute();
          break;
      }
    }
  },
};

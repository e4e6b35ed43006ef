import { createsRecord, RecordChanges } from './batch.ts';
import type { Projection } from './projection.ts';

type Rec = Record<string, unknown>;

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
          purchases.write(
            p.id as string,
            {
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
            },
            createsRecord(event.type),
          );
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
          sales.write(
            s.id as string,
            {
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
            },
            createsRecord(event.type),
          );
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

import { createsRecord, RecordChanges } from './batch.ts';
import { type Projection, typed } from './projection.ts';

/** Purchases and sales as rows, with what has been returned of each. */
export const purchasesAndSales: Projection = {
  name: 'purchases_and_sales',
  tables: ['purchases', 'sales'],
  async apply(tx, events) {
    const purchases = new RecordChanges('purchases');
    const sales = new RecordChanges('sales');
    for (const recorded of events) {
      const event = typed(recorded);
      const at = event.metadata.recordedAt;
      switch (event.type) {
        case 'PurchaseRecorded':
        case 'PurchaseUpdated': {
          const p = event.data.purchase;
          purchases.write(
            p.id,
            {
              id: p.id,
              type: p.type,
              purchase_date: p.purchase_date,
              city_id: p.city_id,
              funder_id: p.funder_id,
              product_id: p.product_id,
              godown_id: p.godown_id,
              collector_id: p.collector_id,
              agent_id: p.agent_id,
              rate: p.rate,
              quantity: p.quantity,
              paid_amount: p.paid_amount,
              commission: p.commission,
              custom_fields: JSON.stringify(p.custom_fields ?? {}),
              adjusts: p.adjusts ? JSON.stringify(p.adjusts) : null,
              created_at: at,
            },
            createsRecord(event.type),
          );
          break;
        }
        case 'PurchaseReturned': {
          const r = event.data.purchase_return;
          purchases.returned(r.purchase_id, r.quantity);
          break;
        }
        case 'PurchaseDeleted':
          purchases.deleted(event.data.id);
          break;
        case 'SaleRecorded':
        case 'SaleUpdated': {
          const s = event.data.sale;
          sales.write(
            s.id,
            {
              id: s.id,
              sale_date: s.sale_date,
              agent_id: s.agent_id,
              agent_city_id: event.data.agent_city_id,
              product_id: s.product_id,
              godown_id: s.godown_id,
              rate: s.rate,
              quantity: s.quantity,
              clearing_charge: s.clearing_charge,
              custom_fields: JSON.stringify(s.custom_fields ?? {}),
              adjusts: s.adjusts ? JSON.stringify(s.adjusts) : null,
              created_at: at,
            },
            createsRecord(event.type),
          );
          break;
        }
        case 'SaleReturned': {
          const r = event.data.sale_return;
          sales.returned(r.sale_id, r.quantity);
          break;
        }
        case 'SaleDeleted':
          sales.deleted(event.data.id);
          break;
      }
    }
    await purchases.apply(tx);
    await sales.apply(tx);
  },
};

import { insertRows } from './batch.ts';
import { type Projection, typed } from './projection.ts';

/** Where each purchase and sale lives, so a return can load the right stream. */
export const recordStreams: Projection = {
  name: 'record_streams',
  tables: ['record_streams'],
  async apply(tx, events) {
    const rows = events.flatMap((recorded) => {
      const event = typed(recorded);
      const record =
        event.type === 'PurchaseRecorded'
          ? { id: event.data.purchase.id, kind: 'Purchase' as const }
          : event.type === 'SaleRecorded'
            ? { id: event.data.sale.id, kind: 'Sale' as const }
            : undefined;
      return record ? [{ record_id: record.id, kind: record.kind, stream_id: event.streamId }] : [];
    });
    await insertRows(tx, 'record_streams', rows);
  },
};

import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// A purchase's or sale's history (GET /api/reports/records/:type/:id) takes in its returns,
// which the activity log keeps as records of their own (PurchaseReturn, SaleReturn) naming
// their purchase or sale in their data: found by that id through these partial indexes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX activity_log_purchase_return ON activity_log ((new_data->>'purchase_id'), position)
    WHERE model_name = 'PurchaseReturn'`.execute(db);
  await sql`CREATE INDEX activity_log_sale_return ON activity_log ((new_data->>'sale_id'), position)
    WHERE model_name = 'SaleReturn'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX activity_log_sale_return`.execute(db);
  await sql`DROP INDEX activity_log_purchase_return`.execute(db);
}

/**
 * Importing one XLSX of 10,000 purchases (issue #31) through the command API on Postgres: the
 * upload (read, names looked up, every row decided as the purchase API decides it, the preview
 * of the accounts and stock) and the commit (every master named read again under its lock, then
 * the rows appended in one transaction: 80% into 3 godowns' streams in chunks of 1,000, 20%
 * direct purchases on a stream each) timed, then the projector catching up. A fresh database.
 *
 *   npm run import-purchases --workspace bench   (DATABASE_URL, default the local Postgres; ROWS=10000)
 */
import ExcelJS from 'exceljs';
import { timeImport, withBenchApp } from './import-run.ts';

const ROWS = Number(process.env.ROWS ?? 10_000);

await withBenchApp('import_purchases', async (t) => {
  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', `/api/masters/${path}`, t.adminToken, body);
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json().id as string;
  };
  const cities = ['Kabul', 'Mumbai', 'Karachi'];
  const cityIds = [
    await made('cities', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' }),
    await made('cities', { name: 'Mumbai', currency_name: 'INR', rate: '1' }),
    await made('cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' }),
  ];
  const products = ['Cumin', 'Saffron', 'Raisins', 'Almonds', 'Figs'];
  for (const name of products) await made('products', { name });
  const godowns = ['Bhiwandi', 'Vashi', 'Kalbadevi'];
  for (const name of godowns) await made('godowns', { name });
  // 100 funders, 10 agents and 10 collectors, spread over the three cities.
  for (let i = 0; i < 100; i++) await made('funders', { name: `Funder ${i}`, city_id: cityIds[i % 3] });
  for (let i = 0; i < 10; i++) {
    await made('agents', { name: `Agent ${i}`, city_id: cityIds[i % 3] });
    await made('collectors', { name: `Collector ${i}`, city_id: cityIds[i % 3] });
  }
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Purchases');
  sheet.addRow([
    'Type',
    'Purchase Date',
    'City',
    'Funder',
    'Product',
    'Godown',
    'Agent',
    'Collector',
    'Rate',
    'Quantity',
    'Paid Amount',
    'Commission',
  ]);
  for (let i = 0; i < ROWS; i++) {
    const c = i % 3;
    const direct = i % 5 === 0;
    const paid = i % 4 === 0;
    sheet.addRow([
      direct ? 'Direct' : 'Godown',
      `${String((i % 28) + 1).padStart(2, '0')}/04/2026`,
      cities[c],
      `Funder ${(i % 33) * 3 + c}`,
      products[i % 5],
      direct ? null : godowns[i % 3],
      direct ? `Agent ${(i % 3) * 3 + c}` : null,
      paid ? `Collector ${(i % 3) * 3 + c}` : null,
      `${100 + (i % 50)}.25`,
      `${1 + (i % 20)}.5`,
      paid ? '1,000' : null,
      direct ? '12.50' : null,
    ]);
  }
  const file = Buffer.from(await wb.xlsx.writeBuffer());
  await timeImport(t, {
    kind: 'purchases',
    file,
    rows: ROWS,
    models: ['purchases_and_sales', 'journal', 'activity_log'],
    table: 'purchases',
    extra: (p) => ({
      accountsInPreview: p.effect.accounts!.length,
      stockLinesInPreview: p.effect.stock!.length,
    }),
  });
});

/**
 * Importing one XLSX of 10,000 funders (issue #31) through the command API on Postgres: the
 * upload (read, every row checked, preview stored) and the commit (10,001 appends in one
 * transaction) timed, then the projector catching up with it. A fresh database per run.
 *
 *   npm run import --workspace bench     (DATABASE_URL, default the local Postgres; ROWS=10000)
 */
import ExcelJS from 'exceljs';
import { timeImport, withBenchApp } from './import-run.ts';

const ROWS = Number(process.env.ROWS ?? 10_000);

await withBenchApp('import', async (t) => {
  for (const [city, currency] of [
    ['Kabul', 'AFN'],
    ['Mumbai', 'INR'],
    ['Karachi', 'PKR'],
  ])
    await t.call('POST', '/api/masters/cities', t.adminToken, {
      name: city,
      currency_name: currency,
      rate: 1,
    });
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Funders');
  sheet.addRow(['Name', 'City', 'Opening Balance', 'Joining Date', 'Phone', 'Address', 'Narration']);
  const cities = ['Kabul', 'Mumbai', 'Karachi'];
  for (let i = 1; i <= ROWS; i++)
    sheet.addRow([
      `Funder ${i}`,
      cities[i % 3],
      `₹ ${i * 100}.50`,
      '01/04/2026',
      '+93 70 000 0000',
      'Bazaar',
      null,
    ]);
  const file = Buffer.from(await wb.xlsx.writeBuffer());
  await timeImport(t, {
    kind: 'funders',
    file,
    rows: ROWS,
    models: ['masters', 'activity_log'],
    table: 'parties',
  });
});

import ExcelJS from 'exceljs';
import type { Body, TestApp } from './test-app.ts';

/**
 * What the whole-app import tests share (issue #31): a workbook made of rows, an upload of it
 * through the real HTTP route (the file itself as the body), and the errors of a preview by cell.
 */
export type CellError = { row: number; cell: string | null; msg: string };

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One sheet holding `rows` (the first is the header a test writes itself), as XLSX bytes. */
export async function workbookOf(sheet: string, rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** POST /api/imports?kind&file_name with the workbook as the body: the answer's status and preview. */
export async function uploadFile(
  app: TestApp,
  kind: string,
  body: Buffer,
  fileName: string,
): Promise<{ status: number; body: Body }> {
  const res = await fetch(
    `${app.bahi.url}/api/imports?kind=${kind}&file_name=${encodeURIComponent(fileName)}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': XLSX },
      body: new Uint8Array(body),
    },
  );
  return { status: res.status, body: (await res.json()) as Body };
}

/** Every row's errors of a preview, each with its row. */
export const errorsOf = (preview: Body): CellError[] =>
  (preview.rows as Array<{ row: number; errors: CellError[] }>).flatMap((r) =>
    r.errors.map((e) => ({ ...e, row: r.row })),
  );

/** The messages on one cell of a preview. */
export const messagesOn = (preview: Body, cell: string): string[] =>
  errorsOf(preview)
    .filter((e) => e.cell === cell)
    .map((e) => e.msg);

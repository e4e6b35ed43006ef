/// <reference path="./pdfmake.d.ts" />
/**
 * Report rendering speed and memory: a 10,000-line ledger to PDF and to XLSX, and a
 * 100,000-line ledger to XLSX by streaming, each beside a plain pdfmake / exceljs rendering of
 * the same table. Each case runs in its own process (peak RSS is the process's maxRSS), after
 * a small warm-up render (fonts loaded, code compiled).
 *
 *   npm run bench:reports          (or: npm run reports --workspace bench)
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ReportDocument } from '@bahi/reports-worker/render';

const meta = { businessName: 'Bench Traders', generatedAt: new Date().toISOString(), position: '1' };

/** The render modules are loaded per case, so a baseline process holds only its own library. */
const bahi = () => import('@bahi/reports-worker/render');

async function ledger(n: number): Promise<ReportDocument> {
  const { toDocument } = await bahi();
  let balance = 0n;
  const transactions = Array.from({ length: n }, (_, i) => {
    const cents = BigInt(1000 + ((i * 7919) % 900_000));
    const debit = i % 3 !== 0;
    balance += debit ? cents : -cents;
    const money = (c: bigint) =>
      `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${((c < 0n ? -c : c) % 100n).toString().padStart(2, '0')}`;
    return {
      date: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      particulars: i % 50 === 0 ? 'रमेश ट्रेडर्स purchase' : debit ? 'Sale' : 'Payment',
      type: debit ? 'Debit' : 'Credit',
      debit: debit ? money(cents) : '0.00',
      credit: debit ? '0.00' : money(cents),
      balance: money(balance),
    };
  });
  return toDocument({
    report: 'ledger',
    params: { type: 'Agent', id: 'bench', startDate: '2026-01-01', endDate: '2026-12-31' },
    data: {
      entity: { name: 'Bench Agent' },
      openingBalance: '0.00',
      totalDebit: '1.00',
      totalCredit: '1.00',
      closingBalance: '0.00',
      transactions,
    },
  });
}

/** The baselines: the same table, the plain way each library's docs show. */
async function plainPdf(doc: ReportDocument) {
  const pdfmake = (await import('pdfmake')).default;
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((p) => p.startsWith(dir));
  pdfmake.addFonts({
    Roboto: {
      normal: join(dir, 'Roboto-Regular.ttf'),
      bold: join(dir, 'Roboto-Medium.ttf'),
      italics: join(dir, 'Roboto-Italic.ttf'),
      bolditalics: join(dir, 'Roboto-MediumItalic.ttf'),
    },
  });
  const body = [
    doc.columns.map((c) => c.header),
    ...doc.rows.map((r) => doc.columns.map((c) => r[c.key] ?? '')),
  ];
  return pdfmake
    .createPdf({ content: [{ table: { headerRows: 1, body } }], defaultStyle: { fontSize: 8 } })
    .getBuffer();
}
async function plainXlsx(doc: ReportDocument) {
  const ExcelJS = (await import('exceljs')).default;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Ledger');
  sheet.addRow(doc.columns.map((c) => c.header));
  for (const r of doc.rows)
    sheet.addRow(doc.columns.map((c) => (c.kind === 'money' ? Number(r[c.key]) : (r[c.key] ?? ''))));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const CASES: Record<string, { rows: number; run: (doc: ReportDocument) => Promise<Buffer>; goal: string }> = {
  'pdf-10k-bahi': {
    rows: 10_000,
    run: async (d) => (await bahi()).renderPdf(d, meta),
    goal: '<= 3 s, <= 300 MB',
  },
  'pdf-10k-plain-pdfmake': { rows: 10_000, run: plainPdf, goal: 'baseline' },
  'xlsx-10k-bahi': { rows: 10_000, run: async (d) => (await bahi()).renderXlsx(d, meta), goal: '<= 1 s' },
  'xlsx-10k-plain-exceljs': { rows: 10_000, run: plainXlsx, goal: 'baseline' },
  'xlsx-100k-bahi-streaming': {
    rows: 100_000,
    run: async (d) => (await bahi()).renderXlsx(d, meta),
    goal: '<= 5 s, <= 250 MB',
  },
  'xlsx-100k-plain-exceljs': { rows: 100_000, run: plainXlsx, goal: 'baseline' },
};

async function runCase(name: string) {
  const c = CASES[name]!;
  await c.run(await ledger(20)); // warm-up: fonts, code paths
  const doc = await ledger(c.rows);
  const floorMb = process.memoryUsage().rss / 2 ** 20;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const out = await c.run(doc);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu0);
  // CPU time too: on a shared machine, wall time grows with the other processes' load.
  const cpuMs = (used.user + used.system) / 1000;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ name, ms, cpuMs, rssMb, floorMb, bytes: out.length }));
}

const RUNS = Number(process.env.RUNS ?? 3);
const arg = process.argv.indexOf('--case');
if (arg > 0) {
  await runCase(process.argv[arg + 1]!);
} else {
  const script = fileURLToPath(import.meta.url);
  const cpu = os.cpus();
  console.log(
    `reports bench - ${cpu[0]?.model} x${cpu.length}, ${Math.round(os.totalmem() / 2 ** 30)} GB, node ${process.version}, ` +
      `${new Date().toISOString()}, load average ${os.loadavg()[0]?.toFixed(1)}, median of ${RUNS} runs (each its own process)`,
  );
  console.log(
    '| case | rows | wall time (median / best) | CPU time (median) | peak RSS (median) | RSS before render | file | goal |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const name of Object.keys(CASES)) {
    const runs = Array.from({ length: RUNS }, () => {
      const out = execFileSync(process.execPath, ['--import', 'tsx', script, '--case', name], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      return JSON.parse(out.trim().split('\n').at(-1)!) as {
        ms: number;
        cpuMs: number;
        rssMb: number;
        floorMb: number;
        bytes: number;
      };
    });
    const median = <T>(xs: T[], key: (x: T) => number) =>
      xs.map(key).sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ms = median(runs, (r) => r.ms);
    const best = Math.min(...runs.map((r) => r.ms));
    console.log(
      `| ${name} | ${CASES[name]!.rows.toLocaleString('en')} | ${(ms / 1000).toFixed(2)} s / ${(best / 1000).toFixed(2)} s | ` +
        `${(median(runs, (r) => r.cpuMs) / 1000).toFixed(2)} s | ` +
        `${Math.round(median(runs, (r) => r.rssMb))} MB | ${Math.round(median(runs, (r) => r.floorMb))} MB | ` +
        `${(runs[0]!.bytes / 1e6).toFixed(1)} MB | ${CASES[name]!.goal} |`,
    );
  }
}

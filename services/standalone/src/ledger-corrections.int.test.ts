import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, readXlsx } from '../../reports-worker/src/testing/readers.ts';
import { expectRebuildIdentical } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Issue #25: an edit read like two sales in the ledger (the edit's reversal of the old amount
 * shown as a debit beside the new credit, and Total Debit inflated by it). By default a ledger
 * or a cashbook shows each record once at its current figures; `corrections=true` shows the
 * trail, each line saying how it stands (superseded, reversal, amended) and who did it when.
 * Figures worked out by hand: funder Dev (Mumbai, INR) sells us 57 Cumin at 312.00 = 17,784.00
 * with 5,000.00 paid on the spot by collector Mohan, and 10 at 100.00 = 1,000.00; then the first
 * becomes 60 (18,720.00) and the second is deleted.
 */
describe.each(TEST_STORAGES)('a ledger after edits and deletes [%s]', (storage) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  let beforeEdit = '';

  const write = async (method: string, path: string, body?: unknown) => {
    const r = await t.call(method, path, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body.id as string;
  };
  const read = async (path: string): Promise<Body> => {
    const r = await t.call('GET', path);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };
  const purchase = (quantity: number, date: string) => ({
    type: 'Godown',
    purchase_date: date,
    city_id: ids.mumbai,
    funder_id: ids.dev,
    product_id: ids.cumin,
    godown_id: ids.bhiwandi,
    rate: '312',
    quantity,
    paid_amount: '5000',
    collector_id: ids.mohan,
  });
  /** The lines as date, debit, credit, balance and the correction's state. */
  const lines = (ledger: Body) =>
    ledger.transactions.map((l: Body) => [l.date, l.debit, l.credit, l.balance, l.correction?.state ?? null]);

  beforeAll(async () => {
    t = await openTestApp({ storage });
    ids.mumbai = await write('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    ids.dev = await write('POST', '/masters/funders', { name: 'Dev', city_id: ids.mumbai });
    ids.mohan = await write('POST', '/masters/collectors', {
      name: 'Mohan',
      city_id: ids.mumbai,
      opening_balance: 20000,
    });
    ids.bhiwandi = await write('POST', '/masters/godowns', { name: 'Bhiwandi' });
    ids.cumin = await write('POST', '/masters/products', { name: 'Cumin' });
    ids.p1 = await write('POST', '/transactions/purchases', purchase(57, '2026-11-02'));
    ids.p2 = await write('POST', '/transactions/purchases', {
      ...purchase(10, '2026-11-03'),
      rate: '100',
      paid_amount: '0',
      collector_id: undefined,
    });
    await t.syncToHead();
    beforeEdit = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await write('PUT', `/transactions/purchases/${ids.p1}`, purchase(60, '2026-11-02'));
    await write('DELETE', `/transactions/purchases/${ids.p2}`);
    await t.syncToHead();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('shows the edited purchase once, at its new figures, and the deleted one not at all', async () => {
    const ledger = await read(`/reports/ledger/Funder/${ids.dev}`);
    expect(lines(ledger)).toEqual([
      ['2026-11-02', '0.00', '18720.00', '18720.00', 'amended'],
      ['2026-11-02', '5000.00', '0.00', '13720.00', 'amended'],
    ]);
    expect(ledger.transactions[0].particulars).toBe('Purchase: 60.0000 Cumin from Dev (edited)');
    // Not 17,784 + 12,784 of reversal: the totals move by the edit's difference alone.
    expect(ledger.totalDebit).toBe('5000.00');
    expect(ledger.totalCredit).toBe('18720.00');
    expect(ledger.closingBalance).toBe('13720.00');
  });

  it('shows the trail on request: the original, its reversal, the amended lines, the delete', async () => {
    const ledger = await read(`/reports/ledger/Funder/${ids.dev}?corrections=true`);
    expect(lines(ledger)).toEqual([
      ['2026-11-02', '0.00', '17784.00', '17784.00', 'superseded'],
      ['2026-11-02', '5000.00', '0.00', '12784.00', 'superseded'],
      // The edit: one reversal line per account, then the new lines.
      ['2026-11-02', '12784.00', '0.00', '0.00', 'reversal'],
      ['2026-11-02', '0.00', '18720.00', '18720.00', 'amended'],
      ['2026-11-02', '5000.00', '0.00', '13720.00', 'amended'],
      ['2026-11-03', '0.00', '1000.00', '14720.00', 'superseded'],
      ['2026-11-03', '1000.00', '0.00', '13720.00', 'reversal'],
    ]);
    const words = ledger.transactions.map((l: Body) => l.particulars);
    expect(words[0]).toMatch(
      /^Purchase: 57\.0000 Cumin from Dev - replaced by an edit on \d+ \w{3} \d{4} by /,
    );
    expect(words[2]).toMatch(/^Reversal of Purchase: 57\.0000 Cumin from Dev - edit of /);
    expect(words[3]).toMatch(/^Purchase: 60\.0000 Cumin from Dev - edited on /);
    expect(words[5]).toMatch(/^Purchase: 10\.0000 Cumin from Dev - deleted on /);
    expect(words[6]).toMatch(/^Reversal of Purchase: 10\.0000 Cumin from Dev - deletion of /);
    expect(ledger.transactions[2].correction).toEqual({
      state: 'reversal',
      action: 'edited',
      at: expect.any(String),
      by: 'Administrator',
    });
    expect(ledger.closingBalance).toBe('13720.00');
  });

  it('as known before the edit, shows the books as they were then', async () => {
    const ledger = await read(`/reports/ledger/Funder/${ids.dev}?knownAt=${beforeEdit}`);
    expect(lines(ledger)).toEqual([
      ['2026-11-02', '0.00', '17784.00', '17784.00', null],
      ['2026-11-02', '5000.00', '0.00', '12784.00', null],
      ['2026-11-03', '0.00', '1000.00', '13784.00', null],
    ]);
  });

  it("keeps a correction's lines where they do not cancel within the dates asked for", async () => {
    // The purchase moves to the 5th: its earlier lines stay on the 2nd, its reversal is on the 5th.
    await write('PUT', `/transactions/purchases/${ids.p1}`, purchase(60, '2026-11-05'));
    await t.syncToHead();
    const from4th = await read(`/reports/ledger/Funder/${ids.dev}?startDate=2026-11-04`);
    const all = await read(`/reports/ledger/Funder/${ids.dev}?startDate=2026-11-04&corrections=true`);
    // The 2nd is before the range: the reversal alone is in it, and shows, saying what it undoes.
    expect(lines(from4th)).toEqual([
      ['2026-11-05', '13720.00', '0.00', '0.00', 'reversal'],
      ['2026-11-05', '0.00', '18720.00', '18720.00', 'amended'],
      ['2026-11-05', '5000.00', '0.00', '13720.00', 'amended'],
    ]);
    expect(from4th.openingBalance).toBe(all.openingBalance);
    expect(from4th.closingBalance).toBe(all.closingBalance);
    // Over every date, the move cancels: the purchase shows once, on its new date.
    const whole = await read(`/reports/ledger/Funder/${ids.dev}`);
    expect(lines(whole)).toEqual([
      ['2026-11-05', '0.00', '18720.00', '18720.00', 'amended'],
      ['2026-11-05', '5000.00', '0.00', '13720.00', 'amended'],
    ]);
  });

  it("shows the collector's cash once too, and the files follow the screen", async () => {
    const cashbook = await read(
      `/reports/cashbook-report?entity_type=Collector&entity_id=${ids.mohan}&city_id=${ids.mumbai}`,
    );
    expect(cashbook.map((r: Body) => [r.date, r.cash_in, r.cash_out])).toEqual([
      ['2026-11-05', '0.00', '5000.00'],
    ]);
    const trail = await read(
      `/reports/cashbook-report?entity_type=Collector&entity_id=${ids.mohan}&city_id=${ids.mumbai}&corrections=true`,
    );
    expect(trail.length).toBe(5);
    expect((await t.call('GET', `/reports/ledger/Funder/${ids.dev}?corrections=maybe`)).status).toBe(400);
  });

  it('the PDF and Excel of a ledger carry the trail only when asked, as the screen does (issue #25, item 8)', async () => {
    const file = async (format: 'pdf' | 'xlsx', query: string) => {
      const res = await fetch(
        `${t.bahi.url}/api/reports/ledger/Funder/${ids.dev}/download/${format}${query}`,
        {
          headers: { authorization: `Bearer ${t.token}` },
        },
      );
      expect(res.status, `${format}${query}`).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      if (format === 'pdf') return pdfText(body);
      const texts: string[] = [];
      (await readXlsx(body)).eachRow((row) => row.eachCell((c) => texts.push(String(c.value))));
      return texts.join('\n');
    };
    for (const format of ['pdf', 'xlsx'] as const) {
      const plain = await file(format, '');
      const trail = await file(format, '?corrections=true');
      expect(plain, format).not.toContain('Reversal of Purchase');
      expect(trail, format).toContain('Reversal of Purchase: 57.0000 Cumin');
      expect(trail, format).toContain('Reversal of Purchase: 10.0000 Cumin');
    }
  });

  it('a rebuild gives the same lines', async () => {
    await expectRebuildIdentical(t);
  });
});

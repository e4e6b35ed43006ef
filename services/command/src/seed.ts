/**
 * A realistic business built through the command API: three cities in three currencies,
 * products, godowns, funders, agents and collectors, then months of purchases, sales, returns,
 * payments, transfers, salaries, clearing payouts, expenses and incomes. Deterministic (seeded),
 * and every write is one a person could make: sales only from stock the seed has bought.
 */
export type Call = (
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
) => Promise<{ status: number; body: { id?: string; message?: string } }>;

export interface SeedOptions {
  days: number;
  /** The last day of the activity (YYYY-MM-DD); it starts `days` before. */
  until: string;
  seed?: number;
  /** A name prefix: several units of one business seeded side by side, each with its own masters. */
  unit?: string;
  /** How many times the daily activity (purchases, sales, payments, expenses) happens. */
  intensity?: number;
}

/**
 * small: one unit, four months (about a thousand records).
 * large: 12 units side by side, two years, 16 times the daily activity: about a million
 * events, and hundreds of parties in 36 cities of three currencies.
 * unit: one unit of large (its first, the same activity): about 84,000 events, so the busiest
 * collector's ledger is as long as in large (about 6,000 lines) for a fraction of the seeding.
 * quick: five units of large's daily activity over six months, written side by side: about
 * 100,000 events seeded in minutes, and the busiest collector's month as long as in large
 * (`npm run bench:reads:quick`).
 */
export const SCALES = {
  small: { days: 120, units: 1, intensity: 1 },
  quick: { days: 180, units: 5, intensity: 16 },
  unit: { days: 730, units: 1, intensity: 16 },
  large: { days: 730, units: 12, intensity: 16 },
} as const;

/**
 * A scale's units, written concurrently (each unit's writes in order, so every one is a
 * write a person could make). Returns the records written.
 */
export async function seedScale(
  call: Call,
  scale: { days: number; units: number; intensity: number },
  until: string,
  onProgress?: (writes: number) => void,
): Promise<{ writes: number }> {
  let total = 0;
  const counting: Call = async (method, path, body) => {
    const res = await call(method, path, body);
    if (++total % 1000 === 0) onProgress?.(total);
    return res;
  };
  const results = await Promise.all(
    Array.from({ length: scale.units }, (_, u) =>
      seedBusiness(counting, {
        days: scale.days,
        until,
        seed: 7 + u,
        intensity: scale.intensity,
        ...(scale.units > 1 ? { unit: `U${u + 1}` } : {}),
      }),
    ),
  );
  return { writes: results.reduce((sum, r) => sum + r.writes, 0) };
}

function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
    chance: (p: number) => next() < p,
  };
}

/** The parties the seed names, four funders and agents and two collectors a city. */
const NAMES = {
  funder: [
    'Asha Traders',
    'Bala & Sons',
    'Chandni Exports',
    'Devraj Capital',
    'Esha Holdings',
    'Farooq Brothers',
    'Gita Finance',
    'Hamid Co',
    'Irfan Agencies',
    'Jaya Funds',
    'Kabir Trust',
    'Laila Ventures',
  ],
  agent: [
    'Vikram',
    'Sameer',
    'Rashid',
    'Nadia',
    'Omar',
    'Priya',
    'Qasim',
    'Ravi',
    'Sana',
    'Tariq',
    'Usha',
    'Wasim',
  ],
  collector: ['Imran', 'Kiran', 'Latif', 'Meera', 'Naveen', 'Owais'],
};
type Write = (method: 'POST' | 'PUT', path: string, body: unknown) => Promise<string>;
type Random = ReturnType<typeof random>;
interface PartiesByCity {
  funders: string[];
  agents: string[];
  collectors: string[];
}

/** The masters: three cities, four products, three godowns, a custom field, each city's parties. */
async function seedMasters(write: Write, r: Random, named: (name: string) => string) {
  const cities = [
    { name: 'Mumbai', currency_name: 'INR', rate: '1' },
    { name: 'Karachi', currency_name: 'PKR', rate: '0.3' },
    { name: 'Dubai', currency_name: 'AED', rate: '22.6543' },
  ];
  const cityIds: string[] = [];
  for (const c of cities)
    cityIds.push(await write('POST', '/api/masters/cities', { ...c, name: named(c.name) }));
  const products: string[] = [];
  for (const name of ['Cumin', 'Turmeric', 'Saffron', 'Cardamom'])
    products.push(await write('POST', '/api/masters/products', { name: named(name) }));
  const godowns: string[] = [];
  for (const name of ['Bhiwandi', 'Nhava Sheva', 'Jebel Ali'])
    godowns.push(await write('POST', '/api/masters/godowns', { name: named(name), opening_balance: 50_000 }));
  await write('POST', '/api/masters/custom-fields', {
    name: named('Lot number'),
    type: 'TEXT',
    entity_types: ['Purchase', 'Sale'],
  });

  const byCity = cityIds.map(() => ({
    funders: [] as string[],
    agents: [] as string[],
    collectors: [] as string[],
  }));
  for (const [i, cityId] of cityIds.entries()) {
    for (let n = 0; n < 4; n++) {
      byCity[i]!.funders.push(
        await write('POST', '/api/masters/funders', {
          name: named(NAMES.funder[i * 4 + n]!),
          city_id: cityId,
          phone: `+91 98${r.int(10_000_000, 99_999_999)}`,
        }),
      );
      byCity[i]!.agents.push(
        await write('POST', '/api/masters/agents', { name: named(NAMES.agent[i * 4 + n]!), city_id: cityId }),
      );
    }
    for (let n = 0; n < 2; n++) {
      byCity[i]!.collectors.push(
        await write('POST', '/api/masters/collectors', {
          name: named(NAMES.collector[i * 2 + n]!),
          city_id: cityId,
          salary_per_month: r.pick([12_000, 15_000, 18_000]),
        }),
      );
    }
  }

  return { cityIds, products, godowns, byCity };
}

/** What the seed has written so far, and what it knows of the stock. */
interface SeedState {
  write: Write;
  r: Random;
  k: number;
  cityIds: string[];
  products: string[];
  godowns: string[];
  byCity: PartiesByCity[];
  /** godown|product -> units the seed knows are there */
  stock: Map<string, number>;
  purchases: Array<{ id: string; quantity: number; key: string }>;
  sales: Array<{ id: string; quantity: number }>;
}

/** One business day: purchases, sales, a return now and then, payments, expenses, weekly and monthly records. */
async function seedDay(seed: SeedState, date: string): Promise<void> {
  const { write, r, k, cityIds, products, godowns, byCity, stock, purchases, sales } = seed;
  for (let n = 0; n < 2 * k; n++) {
    const c = r.int(0, 2);
    const godown = r.pick(godowns);
    const product = r.pick(products);
    const quantity = r.int(50, 200);
    const paid = r.chance(0.3);
    const id = await write('POST', '/api/transactions/purchases', {
      type: 'Godown',
      purchase_date: date,
      city_id: cityIds[c],
      funder_id: r.pick(byCity[c]!.funders),
      product_id: product,
      godown_id: godown,
      rate: r.int(100, 400),
      quantity,
      custom_fields: {},
      ...(paid ? { paid_amount: r.int(1_000, 5_000), collector_id: r.pick(byCity[c]!.collectors) } : {}),
    });
    purchases.push({ id, quantity, key: `${godown}|${product}` });
    stock.set(`${godown}|${product}`, (stock.get(`${godown}|${product}`) ?? 0) + quantity);
  }
  for (let n = 0; n < 3 * k; n++) {
    const [key, units] = r.pick([...stock.entries()].filter(([, u]) => u >= 10).concat([['', 0]]));
    if (!key || units < 10) continue;
    const [godown, product] = key.split('|');
    const quantity = r.int(5, Math.min(30, units));
    const c = r.int(0, 2);
    const id = await write('POST', '/api/transactions/sales', {
      sale_date: date,
      agent_id: r.pick(byCity[c]!.agents),
      product_id: product,
      godown_id: godown,
      rate: r.int(150, 500),
      quantity,
      clearing_charge: r.chance(0.4) ? r.int(50, 500) : 0,
    });
    sales.push({ id, quantity });
    stock.set(key, units - quantity);
  }
  for (let n = 0; n < k; n++) {
    if (!r.chance(0.1) || sales.length === 0) continue;
    const sale = sales.splice(r.int(0, sales.length - 1), 1)[0]!;
    await write('POST', '/api/transactions/sale-returns', {
      sale_id: sale.id,
      quantity: Math.max(1, Math.floor(sale.quantity / 3)),
      return_date: date,
      remarks: 'Damaged in transit',
    });
  }
  for (let n = 0; n < k; n++) {
    if (!r.chance(0.5)) continue;
    const c = r.int(0, 2);
    const funder = r.chance(0.5);
    await write('POST', '/api/transactions/payments', {
      related_entity_type: funder ? 'Funder' : 'Agent',
      related_entity_id: r.pick(funder ? byCity[c]!.funders : byCity[c]!.agents),
      payment_date: date,
      amount: r.int(2_000, 20_000),
      payment_mode: 'Currency',
      collector_id: r.pick(byCity[c]!.collectors),
    });
  }
  for (const [c, cityId] of [...cityIds.entries()].flatMap((e) => Array.from({ length: k }, () => e))) {
    if (r.chance(0.6)) {
      await write('POST', '/api/transactions/expenses', {
        city_id: cityId,
        expense_date: date,
        category: r.pick(['Fuel', 'Rent', 'Labour', 'Freight', 'Tea']),
        amount: r.int(100, 3_000),
        paid_from_entity_type: 'Collector',
        paid_from_entity_id: r.pick(byCity[c]!.collectors),
      });
    }
  }
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 1) {
    await write('POST', '/api/transactions/transfers', {
      transfer_date: date,
      from_collector_id: byCity[1]!.collectors[0],
      to_collector_id: byCity[0]!.collectors[0],
      sent_amount: r.int(20_000, 60_000),
      transfer_charge: r.int(0, 500),
      operation: '*',
      rate: '0.3',
    });
    await write('POST', '/api/transactions/incomes', {
      city_id: cityIds[0],
      income_date: date,
      category: r.pick(['Rent', 'Commission', 'Interest']),
      amount: r.int(1_000, 10_000),
      received_by_entity_type: 'Godown',
      received_by_entity_id: godowns[0],
    });
  }
  if (date.endsWith('-28')) {
    const [year, month] = date.split('-').map(Number);
    for (const [c] of cityIds.entries()) {
      for (const collector of byCity[c]!.collectors) {
        await write('POST', '/api/transactions/salary-payments', {
          collector_id: collector,
          month,
          year,
          payment_type: 'Full',
          payment_mode: 'Currency',
          paid_from_entity_type: 'Collector',
          paid_from_entity_id: collector,
          payment_date: date,
        });
      }
    }
  }
}

export async function seedBusiness(call: Call, options: SeedOptions): Promise<{ writes: number }> {
  const r = random(options.seed ?? 7);
  const k = options.intensity ?? 1;
  const named = (name: string) => (options.unit ? `${options.unit} ${name}` : name);
  let writes = 0;
  const write = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    let res = await call(method, path, body);
    // The read models a command consults (where a sale lives, say) can lag behind a busy log
    // for a moment: 503 says so; try again shortly rather than give up the whole seed.
    for (let attempt = 1; res.status === 503 && attempt <= 20; attempt++) {
      await new Promise((r) => setTimeout(r, 250 * attempt));
      res = await call(method, path, body);
    }
    if (res.status >= 300)
      throw new Error(`seed: ${method} ${path} answered ${res.status}: ${res.body.message}`);
    writes++;
    return res.body.id as string;
  };

  const { cityIds, products, godowns, byCity } = await seedMasters(write, r, named);
  const stock = new Map<string, number>(); // godown|product -> units the seed knows are there
  const purchases: Array<{ id: string; quantity: number; key: string }> = [];
  const sales: Array<{ id: string; quantity: number }> = [];
  const end = Date.parse(`${options.until}T00:00:00Z`);
  for (let d = options.days - 1; d >= 0; d--) {
    const date = new Date(end - d * 86_400_000).toISOString().slice(0, 10);
    await seedDay({ write, r, k, cityIds, products, godowns, byCity, stock, purchases, sales }, date);
  }
  // One purchase return, of a lot whose godown still holds some of it.
  const returnable = purchases.find((p) => (stock.get(p.key) ?? 0) >= 1);
  if (returnable) {
    await write('POST', '/api/transactions/purchase-returns', {
      purchase_id: returnable.id,
      quantity: 1,
      return_date: options.until,
      remarks: 'Short weight',
    });
  }
  return { writes };
}

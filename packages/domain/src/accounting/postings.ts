import type { Posting } from '@bahi/contracts';
import {
  AMOUNT_SCALE,
  add,
  type Dec,
  isZero,
  mul,
  neg,
  parseDecimal,
  toFixedString,
  zero,
} from '../decimal.ts';
import { invalid } from '../errors.ts';

/**
 * The largest value a record may carry or post: under 10^15 (15 digits before the point), the
 * same bound as a typed amount, quantity or rate. The read models keep amounts as
 * numeric(20, 2) and quantities and rates as numeric(20, 4) (at most 18 and 16 digits before
 * the point); a value the domain lets through must fit them, with room for sums, or the
 * projection that writes it would stop on "numeric field overflow" for good. Checked where a
 * value is derived (rate x quantity, x the city rate into INR, / a rate), answering 400 on the
 * field that made it too large.
 */
export const MAX_INTEGER_DIGITS = 15;
const LIMIT = 10n ** BigInt(MAX_INTEGER_DIGITS);
export const LARGEST_AMOUNT = '999,999,999,999,999.99';

export const fitsReadModel = (value: Dec): boolean =>
  (value.units < 0n ? -value.units : value.units) < LIMIT * 10n ** BigInt(value.scale);

/** The input field a derived value comes from, for the 400 that refuses it. */
export interface Field {
  path: string;
  label: string;
}
const WHOLE_RECORD: Field = { path: '', label: 'This record' };

export const tooLarge = (field: Field) =>
  invalid(
    `${field.label} is too large: what it comes to is over ${LARGEST_AMOUNT}, the most Bahi can keep.`,
    [
      {
        msg: `${field.label} is too large: what it comes to (in INR too, at the city's rate) is over ${LARGEST_AMOUNT}`,
        path: field.path,
      },
    ],
  );

/** Refuses a derived value that would not fit the read models. */
export function requireFits(value: Dec, field: Field): Dec {
  if (!fitsReadModel(value)) throw tooLarge(field);
  return value;
}

/** Account names of the journal (ACCOUNTING.md section 3). */
export const account = {
  funder: (id: string) => `funder:${id}`,
  agent: (id: string) => `agent:${id}`,
  collector: (id: string) => `collector:${id}`,
  godownCash: (id: string) => `godown:${id}`,
  clearing: (godownId: string) => `clearing:${godownId}`,
  stock: (godownId: string, productId: string) => `stock:${godownId}:${productId}`,
  sales: 'nominal:Sales',
  costOfSales: 'nominal:CostOfSales',
  commissionIncome: 'nominal:CommissionIncome',
  expense: (category: string) => `nominal:Expense:${category}`,
  income: (category: string) => `nominal:Income:${category}`,
  salary: 'nominal:Salary',
  transferCharges: 'nominal:TransferCharges',
  fxDifference: 'nominal:FxDifference',
} as const;

/**
 * Where each kind of account starts, as SQL LIKE patterns over the account's name, for the read
 * side (which sums the journal by account): one home for the names `account` writes.
 */
export const ACCOUNT_PATTERNS = {
  nominal: 'nominal:%',
  expense: 'nominal:Expense:%',
  income: 'nominal:Income:%',
  salary: account.salary,
  stock: 'stock:%',
  clearingPrefix: 'clearing:',
} as const;

/**
 * An expense, an income or a salary line: the nominal side of a cash record, which the day-wise
 * books sum (ACCOUNTING.md section 3).
 */
export const isCashNominal = (name: string): boolean =>
  name.startsWith('nominal:Expense:') || name.startsWith('nominal:Income:') || name === account.salary;

/**
 * The party accounts and the side their balance is read on (ACCOUNTING.md section 3): what the
 * business owes a funder is its credits (sign -1); agents, collectors and godowns count their
 * debits (sign 1). `prefix` is the account name's start before the party's id.
 */
export const PARTY_ACCOUNTS = {
  Funder: { prefix: 'funder', sign: -1 },
  Agent: { prefix: 'agent', sign: 1 },
  Collector: { prefix: 'collector', sign: 1 },
  Godown: { prefix: 'godown', sign: 1 },
} as const;

/**
 * The side a nominal account's balance is read on (the name after `nominal:`): income (sales,
 * commission, an income category) is its credits (sign -1); costs and expenses count their
 * debits (sign 1).
 */
export const nominalSign = (name: string): 1 | -1 =>
  name === 'Sales' || name === 'CommissionIncome' || name.startsWith('Income:') ? -1 : 1;

/**
 * The parties whose account is kept in their city's currency (ACCOUNTING.md section 2), and its
 * name: once it has postings, moving such a party to another city would mix two currencies in
 * one ledger. Godowns keep INR wherever they are.
 */
export const CITY_CURRENCY_ACCOUNTS = {
  Funder: account.funder,
  Agent: account.agent,
  Collector: account.collector,
} as const;

export const INR = 'INR';

/**
 * Collects one event's postings. Amounts are signed (+ debit, - credit) at scale 2; each
 * line's INR value is its amount times the rate, rounded once. `balanced()` puts whatever
 * rounding (or a user-entered rate) leaves over on FX difference, so the lines sum to zero
 * in INR and nothing is lost.
 */
export class PostingBook {
  readonly #lines: Posting[] = [];
  #inrTotal: Dec = zero(AMOUNT_SCALE);
  #field: Field = WHOLE_RECORD;

  /**
   * The input field the next lines are derived from: a line that would not fit the read
   * models (docs/decisions.md, "Largest values") is refused as a 400 on it.
   */
  from(path: string, label: string): this {
    this.#field = { path, label };
    return this;
  }

  /** A line in a city currency, converted at `rate` (INR per unit of that currency). */
  post(accountName: string, currency: string, amount: Dec, rate: Dec, quantity?: Dec): this {
    return this.#push(accountName, currency, amount, mul(amount, rate, AMOUNT_SCALE), quantity);
  }

  /** A line kept in INR. */
  postInr(accountName: string, inr: Dec, quantity?: Dec): this {
    return this.#push(accountName, INR, inr, inr, quantity);
  }

  /** An existing line, as it stands (a reversal, say). */
  add(line: Posting): this {
    return this.#push(
      line.account,
      line.currency,
      parseDecimal(line.amount),
      parseDecimal(line.inr),
      line.quantity === undefined ? undefined : parseDecimal(line.quantity),
    );
  }

  #push(accountName: string, currency: string, amount: Dec, inr: Dec, quantity?: Dec): this {
    if (isZero(amount) && isZero(inr) && (!quantity || isZero(quantity))) return this;
    if (!fitsReadModel(amount) || !fitsReadModel(inr) || (quantity && !fitsReadModel(quantity)))
      throw tooLarge(this.#field);
    this.#lines.push({
      account: accountName,
      currency,
      amount: toFixedString(amount),
      inr: toFixedString(inr),
      ...(quantity ? { quantity: toFixedString(quantity) } : {}),
    });
    this.#inrTotal = add(this.#inrTotal, inr);
    return this;
  }

  /** The lines so far, without the balancing line. */
  lines(): Posting[] {
    return [...this.#lines];
  }

  balanced(): Posting[] {
    const lines = [...this.#lines];
    if (!isZero(this.#inrTotal)) {
      const fx = requireFits(neg(this.#inrTotal), this.#field);
      lines.push({
        account: account.fxDifference,
        currency: INR,
        amount: toFixedString(fx),
        inr: toFixedString(fx),
      });
    }
    return lines;
  }
}

/** Sum of an event's postings in INR: zero for every event (invariant 1). */
export function inrTotal(postings: readonly Posting[]): Dec {
  return postings.reduce((sum, p) => add(sum, parseDecimal(p.inr)), zero(AMOUNT_SCALE));
}

/** The same postings with every sign turned: what undoes them. */
export function reversed(postings: readonly Posting[]): Posting[] {
  const flip = (s: string) => (s.startsWith('-') ? s.slice(1) : /[1-9]/.test(s) ? `-${s}` : s);
  return postings.map((p) => ({
    ...p,
    amount: flip(p.amount),
    inr: flip(p.inr),
    ...(p.quantity ? { quantity: flip(p.quantity) } : {}),
  }));
}

/**
 * What a record has posted so far, netted per account and currency: reversing it undoes the
 * record exactly, however many times it was edited.
 */
export class Posted {
  readonly #lines = new Map<
    string,
    { account: string; currency: string; amount: Dec; inr: Dec; quantity?: Dec }
  >();

  addAll(postings: readonly Posting[]): this {
    for (const p of postings) {
      const key = `${p.account}|${p.currency}`;
      const cur = this.#lines.get(key) ?? {
        account: p.account,
        currency: p.currency,
        amount: zero(AMOUNT_SCALE),
        inr: zero(AMOUNT_SCALE),
      };
      this.#lines.set(key, {
        ...cur,
        amount: add(cur.amount, parseDecimal(p.amount)),
        inr: add(cur.inr, parseDecimal(p.inr)),
        ...(p.quantity !== undefined || cur.quantity
          ? { quantity: add(cur.quantity ?? zero(4), parseDecimal(p.quantity ?? '0')) }
          : {}),
      });
    }
    return this;
  }

  /** The lines that undo everything posted, zero lines left out. */
  reversal(): Posting[] {
    return [...this.#lines.values()]
      .filter((l) => !isZero(l.amount) || !isZero(l.inr) || (l.quantity && !isZero(l.quantity)))
      .map((l) => ({
        account: l.account,
        currency: l.currency,
        amount: toFixedString(neg(l.amount)),
        inr: toFixedString(neg(l.inr)),
        ...(l.quantity ? { quantity: toFixedString(neg(l.quantity)) } : {}),
      }));
  }
}

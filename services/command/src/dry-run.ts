import {
  type DomainEvent,
  type DryRunAnswer,
  dryRunAnswer,
  type Posting,
  type PreviewLine,
  type PreviewStock,
} from '@bahi/contracts';
import {
  AMOUNT_SCALE,
  add,
  type Dec,
  format,
  neg,
  nominalSign,
  PARTY_ACCOUNTS,
  parseDecimal,
  QUANTITY_SCALE,
  zero,
} from '@bahi/domain';
import { waitForProjections } from '@bahi/read-db';
import { HttpError } from '@bahi/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { CommandDeps } from './deps.ts';
import { dryRunnable, isDryRun } from './dry-run-header.ts';
import { type DryRun, dryRuns } from './execute.ts';

/**
 * Preview before save (issue #14): a POST or PUT under /api/transactions/ sent with
 * `X-Bahi-Dry-Run: true` runs the same route - validation, role checks, the decider and its
 * refusals - but appends nothing (execute.ts collects the events instead) and keeps no
 * Idempotency-Key answer. Its 2xx answer is replaced by a 200 with the postings the events
 * would make, summed per account, beside each account's balance now and after, and the
 * stock they would move. A refusal keeps the write's status and body.
 */
export type Preview = DryRunAnswer;
export type { PreviewLine, PreviewStock };

/** Party accounts by their name's prefix, with the side their balance is read on (the domain's rule). */
const PARTY_BY_PREFIX = new Map(
  (
    Object.entries(PARTY_ACCOUNTS) as Array<[keyof typeof PARTY_ACCOUNTS, { prefix: string; sign: number }]>
  ).map(([kind, a]) => [a.prefix, { kind, sign: a.sign }]),
);

const NOMINAL_NAMES: Record<string, string> = {
  Sales: 'Sales',
  CostOfSales: 'Cost of sales',
  CommissionIncome: 'Commission income',
  Salary: 'Salary',
  TransferCharges: 'Transfer charges',
  FxDifference: 'FX difference',
};
const nominalName = (name: string) => {
  const known = NOMINAL_NAMES[name];
  if (known) return known;
  const [head, ...rest] = name.split(':');
  return rest.length > 0 ? `${head}: ${rest.join(':')}` : name;
};

/** The events' postings summed per account: amount and quantity, in the account's currency. */
function sumMoves(events: readonly DomainEvent[]) {
  const moves = new Map<string, { currency: string; amount: Dec; quantity: Dec }>();
  for (const event of events) {
    const postings = (event.data as { postings?: Posting[] }).postings ?? [];
    for (const p of postings) {
      const move = moves.get(p.account) ?? {
        currency: p.currency,
        amount: zero(AMOUNT_SCALE),
        quantity: zero(QUANTITY_SCALE),
      };
      move.amount = add(move.amount, parseDecimal(p.amount));
      if (p.quantity !== undefined) move.quantity = add(move.quantity, parseDecimal(p.quantity));
      moves.set(p.account, move);
    }
  }
  return moves;
}

/** The answer to a dry run: the events' postings against the books as they stand. */
export async function buildPreview(deps: CommandDeps, events: readonly DomainEvent[]): Promise<Preview> {
  const moves = sumMoves(events);
  if (moves.size === 0) return { dryRun: true, lines: [], stock: [] };

  // Balances as the read side shows them: wait (bounded) for the journal to reach the log's head.
  // (not there in time: a ProjectionBehindError, which the error handler answers with a 503)
  await waitForProjections(deps.readDb, ['journal', 'masters'], await deps.eventStore.headPosition());
  const accounts = [...moves.keys()];
  const totals = new Map<string, { amount: Dec; quantity: Dec }>();
  for (const row of await deps.readDb
    .selectFrom('account_totals')
    .select(['account', 'amount', 'quantity'])
    .where('account', 'in', accounts)
    .execute()) {
    const total = totals.get(row.account) ?? { amount: zero(AMOUNT_SCALE), quantity: zero(QUANTITY_SCALE) };
    total.amount = add(total.amount, parseDecimal(String(row.amount)));
    total.quantity = add(total.quantity, parseDecimal(String(row.quantity)));
    totals.set(row.account, total);
  }
  const partyIds = new Set<string>();
  const productIds = new Set<string>();
  for (const name of accounts) {
    const [prefix, first, second] = name.split(':');
    if (prefix === 'nominal' || !first) continue;
    partyIds.add(first);
    if (prefix === 'stock' && second) productIds.add(second);
  }
  const parties = new Map(
    partyIds.size === 0
      ? []
      : (
          await deps.readDb
            .selectFrom('parties')
            .select(['id', 'name', 'opening_balance'])
            .where('id', 'in', [...partyIds])
            .execute()
        ).map((p) => [p.id, p]),
  );
  const products = new Map(
    productIds.size === 0
      ? []
      : (
          await deps.readDb
            .selectFrom('products')
            .select(['id', 'name'])
            .where('id', 'in', [...productIds])
            .execute()
        ).map((p) => [p.id, p.name]),
  );

  const lines: PreviewLine[] = [];
  const stock: PreviewStock[] = [];
  for (const [name, move] of moves) {
    const [prefix = '', first = '', second = ''] = name.split(':');
    const total = totals.get(name);
    if (prefix === 'stock') {
      const before = total?.quantity ?? zero(QUANTITY_SCALE);
      if (move.quantity.units === 0n) continue; // a value-only adjustment moves no units
      stock.push({
        godown_id: first,
        godown: parties.get(first)?.name ?? first,
        product_id: second,
        product: products.get(second) ?? second,
        before: format(before, QUANTITY_SCALE),
        change: format(move.quantity, QUANTITY_SCALE),
        after: format(add(before, move.quantity), QUANTITY_SCALE),
      });
      continue;
    }
    const debit = move.amount.units > 0n ? move.amount : zero(AMOUNT_SCALE);
    const credit = move.amount.units < 0n ? neg(move.amount) : zero(AMOUNT_SCALE);
    const posted = total?.amount ?? zero(AMOUNT_SCALE);
    let kind: PreviewLine['kind'];
    let label: string;
    let before: Dec;
    let change: Dec;
    if (prefix === 'nominal') {
      const nominal = name.slice('nominal:'.length);
      kind = 'Nominal';
      label = nominalName(nominal);
      before = zero(AMOUNT_SCALE);
      change = nominalSign(nominal) < 0 ? neg(move.amount) : move.amount;
    } else if (prefix === 'clearing') {
      kind = 'Clearing';
      label = parties.get(first)?.name ?? first;
      before = neg(posted);
      change = neg(move.amount);
    } else if (PARTY_BY_PREFIX.has(prefix)) {
      const account = PARTY_BY_PREFIX.get(prefix)!;
      kind = account.kind;
      const party = parties.get(first);
      label = party?.name ?? first;
      const opening = parseDecimal(String(party?.opening_balance ?? '0'));
      // PARTY_ACCOUNTS: what the business owes a funder is its credits; the others count debits.
      const side = (d: Dec) => (account.sign < 0 ? neg(d) : d);
      before = add(opening, side(posted));
      change = side(move.amount);
    } else {
      continue; // no other account is written today
    }
    lines.push({
      account: name,
      kind,
      name: label,
      currency: move.currency,
      debit: format(debit, AMOUNT_SCALE),
      credit: format(credit, AMOUNT_SCALE),
      before: format(before, AMOUNT_SCALE),
      after: format(add(before, change), AMOUNT_SCALE),
    });
  }
  return { dryRun: true, lines, stock };
}

const runs = new WeakMap<FastifyRequest, DryRun>();

/**
 * Makes every POST and PUT under /api/transactions/ registered inside `register` answer dry
 * runs, and refuses the header on any other write (it would otherwise be written for real).
 */
export async function aroundDryRuns(
  app: FastifyInstance,
  deps: CommandDeps,
  register: () => Promise<void>,
): Promise<void> {
  const refuse = async (request: FastifyRequest) => {
    if (!isDryRun(request)) return;
    const msg = 'A dry run is offered only for a POST or PUT under /api/transactions/';
    throw new HttpError(400, `${msg}.`, [{ msg, path: 'X-Bahi-Dry-Run' }]);
  };
  // A header that is neither true nor false is refused before the body is looked at.
  const checkHeader = async (request: FastifyRequest) => {
    isDryRun(request);
  };
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const run = runs.get(request);
    if (!run) return payload;
    runs.delete(request);
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const preview = await buildPreview(deps, run.events);
    reply.code(200).type('application/json; charset=utf-8');
    return JSON.stringify(preview);
  };

  let registering = true;
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!registering) return;
    const methods = ([] as string[]).concat(route.method);
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    // Before validation and the route's own role check, as when handlers parsed their body.
    if (!methods.every((m) => dryRunnable(m, route.url))) {
      route.preValidation = [refuse, ...([] as unknown[]).concat(route.preValidation ?? [])] as never;
      return;
    }
    route.preValidation = [checkHeader, ...([] as unknown[]).concat(route.preValidation ?? [])] as never;
    // The preview's shape in the contract (a write that answers 201; one answering 200 already keeps its own).
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (route.schema && response && !(200 in response))
      route.schema.response = { ...response, 200: dryRunAnswer };
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      if (!isDryRun(request)) return handler.call(this, request, reply);
      const run: DryRun = { events: [] };
      runs.set(request, run);
      return dryRuns.run(run, () => handler.call(this, request, reply));
    } as typeof handler;
    route.onSend = [...([] as unknown[]).concat(route.onSend ?? []), onSend] as never;
  });
  try {
    await register();
  } finally {
    registering = false;
  }
}

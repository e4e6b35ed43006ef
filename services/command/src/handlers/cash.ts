import type {
  ClearingPayoutInput,
  ExpenseInput,
  IncomeInput,
  PaymentInput,
  SalaryPaymentInput,
  TransferInput,
} from '@bahi/contracts';
import {
  cashEntryDecider,
  cashEntryStreamId,
  GODOWN_CASH,
  inventoryDecider,
  inventoryStreamId,
  paymentDecider,
  paymentStreamId,
  requireOfCity,
  salaryCategory,
  salaryMonthDecider,
  salaryStreamId,
  transferDecider,
  transferStreamId,
} from '@bahi/domain';
import { adjustmentOf } from '../adjustments.ts';
import { execute } from '../execute.ts';
import { newRecordId } from '../write-scope.ts';
import type { HandlerContext } from './context.ts';
import { partyWithCity, requireActive } from './look-ups.ts';

/**
 * Cash (spec section 5): payments to funders and from agents, clearing payouts, salaries,
 * transfers between collectors, expenses and income. Each record but a clearing payout (which
 * moves a godown's clearing balance, kept in its inventory stream) has a stream of its own.
 */

export async function recordPayment(ctx: HandlerContext, input: PaymentInput) {
  const { deps } = ctx;
  const { party, city } = await partyWithCity(
    deps,
    input.related_entity_type,
    input.related_entity_id,
    'related_entity_id',
  );
  if (input.collector_id) {
    requireOfCity(
      await requireActive(deps, 'Collector', input.collector_id, 'collector_id'),
      party.city_id,
      'Collector',
      'collector_id',
      'same',
    );
  }
  if (input.godown_id) await requireActive(deps, 'Godown', input.godown_id, 'godown_id');
  const id = newRecordId();
  const payment = { id, city_id: party.city_id, ...input, adjusts: await adjustmentOf(deps, input.adjusts) };
  const { position } = await execute(deps.eventStore, ctx.meta, paymentStreamId(id), paymentDecider, {
    payment,
    city,
  });
  return { id, position };
}

export async function payOutClearing(ctx: HandlerContext, input: ClearingPayoutInput) {
  const { deps } = ctx;
  const godown = await requireActive(deps, 'Godown', input.godown_id, 'godown_id');
  await requireActive(deps, 'Godown', input.payer_entity_id, 'payer_entity_id');
  const id = newRecordId();
  const { position } = await execute(
    deps.eventStore,
    ctx.meta,
    inventoryStreamId(input.godown_id),
    inventoryDecider,
    {
      type: 'PayOutClearing',
      payout: { id, ...input },
      godownName: godown.name,
    },
  );
  return { id, position };
}

export async function paySalary(ctx: HandlerContext, input: SalaryPaymentInput) {
  const { deps } = ctx;
  const { party: collector, city } = await partyWithCity(
    deps,
    'Collector',
    input.collector_id,
    'collector_id',
  );
  if (input.paid_from_entity_type === 'Collector') {
    requireOfCity(
      await requireActive(deps, 'Collector', input.paid_from_entity_id, 'paid_from_entity_id'),
      collector.city_id,
      'The paying collector',
      'paid_from_entity_id',
      'same',
    );
  } else {
    await requireActive(deps, 'Godown', input.paid_from_entity_id, 'paid_from_entity_id');
  }
  const id = newRecordId();
  const payment = {
    ...input,
    amount: input.amount,
    id,
    city_id: collector.city_id,
    category: input.category ?? salaryCategory(collector.name),
    handler_entity_id: input.handler_entity_id ?? null,
    payment_date: input.payment_date ?? new Date().toISOString().slice(0, 10),
  };
  const { position } = await execute(
    deps.eventStore,
    ctx.meta,
    salaryStreamId(input.collector_id, input.year, input.month),
    salaryMonthDecider,
    { payment, salaryPerMonth: collector.salary_per_month, city, collectorName: collector.name },
  );
  return { id, position };
}

export async function recordTransfer(ctx: HandlerContext, input: TransferInput) {
  const { deps } = ctx;
  const from = await partyWithCity(deps, 'Collector', input.from_collector_id, 'from_collector_id');
  const to = await partyWithCity(deps, 'Collector', input.to_collector_id, 'to_collector_id');
  const id = newRecordId();
  const { position } = await execute(deps.eventStore, ctx.meta, transferStreamId(id), transferDecider, {
    transfer: { id, ...input, adjusts: await adjustmentOf(deps, input.adjusts) },
    from: from.city,
    to: to.city,
  });
  return { id, position };
}

export type CashEntryKind = 'Expense' | 'Income';
type CashEntryInput = ExpenseInput | IncomeInput;

/** Where an expense is paid from, or an income received into: a collector or a godown. */
const cashSide = (kind: CashEntryKind, e: Record<string, unknown>) =>
  kind === 'Expense'
    ? {
        type: e.paid_from_entity_type as 'Collector' | 'Godown',
        id: e.paid_from_entity_id as string,
        path: 'paid_from_entity_id',
      }
    : {
        type: e.received_by_entity_type as 'Collector' | 'Godown',
        id: e.received_by_entity_id as string,
        path: 'received_by_entity_id',
      };

/** The payer's (or receiver's) rate and currency: a collector of the entry's city, or a godown in INR. */
async function payerFacts(ctx: HandlerContext, kind: CashEntryKind, entry: CashEntryInput) {
  const { deps } = ctx;
  await requireActive(deps, 'City', entry.city_id, 'city_id');
  const side = cashSide(kind, entry);
  if (side.type === 'Godown') {
    await requireActive(deps, 'Godown', side.id, side.path);
    return GODOWN_CASH;
  }
  const { party, city } = await partyWithCity(deps, 'Collector', side.id, side.path);
  requireOfCity(party, entry.city_id, 'The collector', side.path, 'same');
  return city;
}

export async function recordCashEntry(ctx: HandlerContext, kind: CashEntryKind, fields: CashEntryInput) {
  const payer = await payerFacts(ctx, kind, fields);
  const id = newRecordId();
  const entry = { id, ...fields, adjusts: await adjustmentOf(ctx.deps, fields.adjusts) } as never;
  const { position } = await execute(
    ctx.deps.eventStore,
    ctx.meta,
    cashEntryStreamId(kind, id),
    cashEntryDecider(kind),
    {
      type: 'Record',
      entry,
      payer,
    },
  );
  return { id, position };
}

export async function updateCashEntry(
  ctx: HandlerContext,
  kind: CashEntryKind,
  id: string,
  fields: CashEntryInput,
) {
  const payer = await payerFacts(ctx, kind, fields);
  const entry = { id, ...fields, adjusts: await adjustmentOf(ctx.deps, fields.adjusts, id) } as never;
  const { position } = await execute(
    ctx.deps.eventStore,
    ctx.meta,
    cashEntryStreamId(kind, id),
    cashEntryDecider(kind),
    {
      type: 'Update',
      entry,
      payer,
    },
  );
  return { id, position };
}

export async function deleteCashEntry(ctx: HandlerContext, kind: CashEntryKind, id: string) {
  const { position } = await execute(
    ctx.deps.eventStore,
    ctx.meta,
    cashEntryStreamId(kind, id),
    cashEntryDecider(kind),
    {
      type: 'Delete',
      id,
    },
  );
  return { id, position };
}

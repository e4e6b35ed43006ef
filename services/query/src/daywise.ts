import type { DaywiseRow } from '@bahi/contracts';
import { ACCOUNT_PATTERNS } from '@bahi/domain';
import { type RawBuilder, sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import { escapeLike } from './query-params.ts';

/** The day-wise report's filters, the range already cut at `asOf`. */
export interface DaywiseFilters {
  startDate?: string | undefined;
  endDate?: string | undefined;
  city_id?: string | undefined;
  category?: string | undefined;
  /** The books as recorded at this moment (ISO, UTC). */
  knownAt?: string | undefined;
}

/** The records a day-wise row comes from (its row type is the report's contract, `daywiseRow`). */
type DaywiseKind = DaywiseRow['record']['type'];

interface Found {
  id: string;
  kind: DaywiseKind;
  date: string;
  category: string;
  remarks: string | null;
  type: 'Income' | 'Expense';
  amount_entered: string;
  amount: string;
}

const shape = (r: Found): DaywiseRow => ({
  date: r.date,
  category: r.category,
  remarks: r.remarks,
  type: r.type,
  amount_entered: r.amount_entered,
  amount: r.amount,
  currency: 'INR',
  record: { type: r.kind, id: r.id },
});

/**
 * The filters on a record as `date`, `city` and `data` (its JSON) say it: the same for the
 * rows as they stand and as they were known.
 */
function filtered(
  f: DaywiseFilters,
  at: { date: RawBuilder<unknown>; city: RawBuilder<unknown>; data: RawBuilder<unknown> },
) {
  const where = [sql`true`];
  if (f.startDate) where.push(sql`${at.date} >= ${f.startDate}::date`);
  if (f.endDate) where.push(sql`${at.date} <= ${f.endDate}::date`);
  if (f.city_id) where.push(sql`${at.city} = ${f.city_id}::uuid`);
  if (f.category) where.push(sql`${at.data}->>'category' ilike ${`%${escapeLike(f.category)}%`}`);
  return sql.join(where, sql` and `);
}

/**
 * Income and expense by day, as the cash_records read model holds them now: each record's
 * latest data, and the INR on its nominal side as it stands (`nominal_inr`). In
 * business-date order, then the order of recording, then id.
 */
async function daywiseNow(deps: QueryDeps, f: DaywiseFilters): Promise<DaywiseRow[]> {
  const where = filtered(f, { date: sql`r.business_date`, city: sql`r.city_id`, data: sql`r.record` });
  const { rows } = await sql<Found>`
    select r.id, r.kind, r.business_date::text as date,
           r.record->>'category' as category, r.record->>'remarks' as remarks,
           case when r.kind = 'Income' then 'Income' else 'Expense' end as type,
           r.amount::text as amount_entered, r.nominal_inr::text as amount
      from cash_records r
     where r.kind in ('Expense', 'Income', 'SalaryPayment') and not r.deleted and ${where}
     order by r.business_date, r.created_at, r.id`.execute(deps.readDb);
  return rows.map(shape);
}

/**
 * The same rows as they were known at a moment, rebuilt from what was recorded by then,
 * exactly as the cash_records projection builds them from the events:
 * - each record's latest activity-log entry recorded by then (`created_at` is the event's
 *   recordedAt) gives its data: date, city, category, remarks and amount entered; a record
 *   whose latest entry is a delete is gone, one first recorded later is not there yet;
 * - its INR is the nominal side (expense, income, salary accounts) of the journal lines of its
 *   events up to that one (the entry's position): an edit's lines undo the earlier ones and post
 *   the new ones, so this is the value as the record then stood, as `nominal_inr` keeps it;
 * - its order of recording is its first entry's time, as `created_at` keeps it.
 */
async function daywiseKnownAt(deps: QueryDeps, f: DaywiseFilters, knownAt: string): Promise<DaywiseRow[]> {
  const date = sql`(case k.model_name when 'Expense' then k.new_data->>'expense_date'
                     when 'Income' then k.new_data->>'income_date' else k.new_data->>'payment_date' end)::date`;
  const where = filtered(f, { date, city: sql`(k.new_data->>'city_id')::uuid`, data: sql`k.new_data` });
  const { rows } = await sql<Found>`
    select k.record_id as id, k.model_name as kind, ${date}::text as date,
           k.new_data->>'category' as category, k.new_data->>'remarks' as remarks,
           case when k.model_name = 'Income' then 'Income' else 'Expense' end as type,
           (k.new_data->>'amount')::numeric(20, 2)::text as amount_entered,
           coalesce((select abs(sum(j.inr)) from journal j
                      where j.record_id = k.record_id and j.position <= k.position
                        and (j.account like ${sql.lit(ACCOUNT_PATTERNS.expense)} or j.account like ${sql.lit(ACCOUNT_PATTERNS.income)}
                             or j.account = ${sql.lit(ACCOUNT_PATTERNS.salary)})), 0)::numeric(20, 2)::text as amount
      from (select distinct on (l.record_id) l.record_id, l.model_name, l.action_type, l.new_data, l.position
              from activity_log l
             where l.model_name in ('Expense', 'Income', 'SalaryPayment')
               and l.created_at <= ${knownAt}::timestamptz
             order by l.record_id, l.position desc) k
     cross join lateral (select f.created_at from activity_log f
                          where f.record_id = k.record_id order by f.position limit 1) first
     where k.action_type <> 'DELETE' and ${where}
     order by ${date}, first.created_at, k.record_id`.execute(deps.readDb);
  return rows.map(shape);
}

/** The day-wise report now, or as known at `knownAt`. */
export function daywiseRows(deps: QueryDeps, f: DaywiseFilters): Promise<DaywiseRow[]> {
  return f.knownAt ? daywiseKnownAt(deps, f, f.knownAt) : daywiseNow(deps, f);
}

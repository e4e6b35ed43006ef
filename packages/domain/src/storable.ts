import { BUSINESS_DATE_MAX, BUSINESS_DATE_MIN, type DomainEvent, isStorableText } from '@bahi/contracts';
import { fitsReadModel, LARGEST_AMOUNT } from './accounting/postings.ts';
import { parseDecimal } from './decimal.ts';
import { invalid } from './errors.ts';

const DECIMAL = /^-?\d+\.\d+$/;
/** Fields that carry a decimal (amount, inr, quantity, value, a rate, a cost, a charge...). */
const DECIMAL_FIELD = /(amount|inr|quantity|value|rate|cost|commission|charge|balance|salary_per_month)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The last check before an event is appended: whatever its fields, every projection must be
 * able to store it. Every business date (a field named `*_date`) within the range, every
 * decimal (a posting, a stock move, a rate) within what numeric(20, 2) and numeric(20, 4)
 * hold with room for sums, every text storable by jsonb. The HTTP schemas and the deciders
 * refuse such input first, on its field; this catches what a new command might forget, so an
 * event a read model cannot hold is never written (issue #16). Custom field values are
 * free data (jsonb) and are left alone.
 */
export function storableProblem(event: DomainEvent): string | undefined {
  const walk = (value: unknown, key: string): string | undefined => {
    if (typeof value === 'string') {
      if (!isStorableText(value)) return `${key} contains characters that cannot be stored`;
      if (key.endsWith('date') && DAY.test(value) && (value < BUSINESS_DATE_MIN || value > BUSINESS_DATE_MAX))
        return `${key} must be between ${BUSINESS_DATE_MIN} and ${BUSINESS_DATE_MAX}`;
      if (DECIMAL_FIELD.test(key) && DECIMAL.test(value) && !fitsReadModel(parseDecimal(value)))
        return `${key} is over ${LARGEST_AMOUNT}, the most Bahi can keep`;
      return undefined;
    }
    if (Array.isArray(value)) {
      for (const item of value) {
        const problem = walk(item, key);
        if (problem) return problem;
      }
      return undefined;
    }
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === 'custom_fields') continue;
        const problem = walk(v, k);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  return walk(event.data, event.type);
}

/** Throws the 400 for an event no read model could hold. */
export function requireStorable(event: DomainEvent): void {
  const problem = storableProblem(event);
  if (problem) throw invalid(`This cannot be recorded: ${problem}.`, [{ msg: problem, path: '' }]);
}

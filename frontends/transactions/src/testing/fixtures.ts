import type { City, Party } from '@bahi/ui/screen';

/** Cities as GET /masters/cities answers them (rates are INR per unit of the currency). */
export const DUBAI: City = {
  id: 'c0000000-0000-4000-8000-000000000001',
  name: 'Dubai',
  currency_name: 'AED',
  rate: '22.6543',
};
export const KARACHI: City = {
  id: 'c0000000-0000-4000-8000-000000000002',
  name: 'Karachi',
  currency_name: 'PKR',
  rate: '0.3000',
};

let n = 0;
/** A party as GET /masters/{kind} answers it; `city` null for a godown. */
export function party(name: string, city: City | null, over: Partial<Party> = {}): Party {
  n += 1;
  return {
    id: `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name,
    city_id: city?.id ?? null,
    city: city ? { id: city.id, name: city.name, currency_name: city.currency_name } : null,
    joining_date: null,
    address: null,
    narration: null,
    phone: null,
    opening_balance: '0.00',
    balance: { amount: '0.00' },
    ...over,
  };
}

export const page = <T>(data: T[]) => ({ body: { data, totalItems: data.length } });

import type { Party } from '@bahi/ui/screen';

export const SHARJAH = { id: 'c0000000-0000-4000-8000-000000000001', name: 'Sharjah', currency_name: 'AED' };
export const MUMBAI = { id: 'c0000000-0000-4000-8000-000000000002', name: 'Mumbai', currency_name: 'INR' };

let n = 0;
/** A party as GET /masters/{kind} answers it. */
export function party(over: Partial<Party> = {}): Party {
  n += 1;
  return {
    id: `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `Party ${n}`,
    city_id: SHARJAH.id,
    city: SHARJAH,
    joining_date: null,
    address: null,
    narration: null,
    phone: null,
    opening_balance: '0.00',
    balance: { amount: '0.00' },
    ...over,
  };
}

export const page = (data: Party[]) => ({ body: { data, totalItems: data.length } });

import type { City, Party } from '@bahi/ui/screen';

// Test data for the reports screens (only tests import this).

export const SHARJAH: City = {
  id: 'c0000000-0000-4000-8000-000000000001',
  name: 'Sharjah',
  currency_name: 'AED',
  rate: '22.7000',
};
export const MUMBAI: City = {
  id: 'c0000000-0000-4000-8000-000000000002',
  name: 'Mumbai',
  currency_name: 'INR',
  rate: '1.0000',
};
export const CITIES = [SHARJAH, MUMBAI];

/** GET /masters/cities?limit=-1 */
export const citiesReply = () => ({ body: { data: CITIES, totalItems: CITIES.length } });

let n = 0;
/** A party as the lists answer it (GET /masters/{kind}, GET /reports/balances). */
export function party(over: Partial<Party> = {}): Party {
  n += 1;
  const city = { id: SHARJAH.id, name: SHARJAH.name, currency_name: SHARJAH.currency_name };
  return {
    id: `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `Party ${n}`,
    city_id: SHARJAH.id,
    city,
    joining_date: null,
    address: null,
    narration: null,
    phone: null,
    opening_balance: '0.00',
    balance: { amount: '0.00' },
    ...over,
  };
}

/** A list page: `{data, totalItems}`. */
export const listPage = <T>(data: T[], totalItems = data.length) => ({ data, totalItems });

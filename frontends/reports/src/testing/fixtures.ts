import type { Party } from '@bahi/ui/screen';
import { pageReply, testCity, testParty } from '@bahi/ui/testing';

// Test data for the reports screens (only tests import this).

export const SHARJAH = testCity(1, 'Sharjah', 'AED', '22.7000');
export const MUMBAI = testCity(2, 'Mumbai', 'INR', '1.0000');
export const CITIES = [SHARJAH, MUMBAI];

/** GET /masters/cities?limit=-1 */
export const citiesReply = () => pageReply(CITIES);

/** A party of Sharjah as the lists answer it (GET /masters/{kind}, GET /reports/balances). */
export const party = (over: Partial<Party> = {}): Party => testParty(SHARJAH, over);

/** A list page: `{data, totalItems}`. */
export const listPage = <T>(data: T[], totalItems = data.length) => ({ data, totalItems });

import type { City, Party } from '@bahi/ui/screen';
import { pageReply, testCity, testParty } from '@bahi/ui/testing';

/** Cities as GET /masters/cities answers them (rates are INR per unit of the currency). */
export const DUBAI = testCity(1, 'Dubai', 'AED', '22.6543');
export const KARACHI = testCity(2, 'Karachi', 'PKR', '0.3000');

/** A party as GET /masters/{kind} answers it; `city` null for a godown. */
export const party = (name: string, city: City | null, over: Partial<Party> = {}): Party =>
  testParty(city, { name, ...over });

export const page = pageReply;

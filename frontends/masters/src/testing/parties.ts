import type { Party } from '@bahi/ui/screen';
import { pageReply, testCity, testParty } from '@bahi/ui/testing';

export const SHARJAH = testCity(1, 'Sharjah', 'AED', '22.7000');
export const MUMBAI = testCity(2, 'Mumbai', 'INR', '1.0000');

/** A party of Sharjah as GET /masters/{kind} answers it. */
export const party = (over: Partial<Party> = {}): Party => testParty(SHARJAH, over);

export const page = pageReply;

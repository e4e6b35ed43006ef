import { describe, expect, it } from 'vitest';
import type { ChainVerification } from './types.ts';
import { describeVerification } from './verification.ts';

const intact: ChainVerification = {
  status: 'intact',
  checked: 3,
  total: 3,
  intactUpTo: '42',
  chainHead: `abcdef012345${'0'.repeat(52)}`,
  sealedUpTo: '42',
  head: '42',
  unsealed: 0,
  startedAt: '2026-11-28T10:00:00.000Z',
  finishedAt: '2026-11-28T10:00:01.000Z',
};

describe('a verification in words', () => {
  it('says intact up to the position, with the count and the start of the chain head', () => {
    expect(describeVerification(intact)).toBe(
      'The books are intact up to position 42 (3 events, chain head abcdef012345).',
    );
    expect(describeVerification({ ...intact, checked: 1, unsealed: 1 })).toBe(
      'The books are intact up to position 42 (1 event, chain head abcdef012345). 1 newer event is not sealed yet and was not checked.',
    );
  });

  it('names the first broken position, the event, both hashes and from where nothing can be trusted', () => {
    const text = describeVerification({
      ...intact,
      status: 'broken',
      intactUpTo: '40',
      broken: {
        position: '41',
        reason: 'altered',
        stored: 'a'.repeat(64),
        recomputed: 'b'.repeat(64),
        type: 'PurchaseRecorded',
        streamId: 'purchase-1',
        recordedAt: '2026-11-01T10:00:00.000Z',
      },
    });
    expect(text).toBe(
      'The log is broken at position 41 (PurchaseRecorded in purchase-1, recorded 2026-11-01T10:00:00.000Z): ' +
        'the event (or its seal) was changed after it was sealed. ' +
        `Stored hash ${'a'.repeat(64)}, recomputed ${'b'.repeat(64)}. ` +
        'It is intact up to position 40; nothing from position 41 on can be trusted.',
    );
    expect(
      describeVerification({
        ...intact,
        status: 'broken',
        intactUpTo: '0',
        broken: { position: '7', reason: 'missing', stored: 'a'.repeat(64), recomputed: null },
      }),
    ).toContain('broken at position 7: a sealed event is no longer in the log. Stored hash aaaa');
  });
});

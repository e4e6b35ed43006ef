import { describe, expect, it } from 'vitest';
import { parseVerificationKeywords, verificationKeywords, verificationLine } from './document.ts';

const digest = '0123456789abcdef'.repeat(4);
const chain = 'fedcba9876543210'.repeat(4);

describe("a report file's verification (issue #30)", () => {
  it('reads back what the keywords say, with or without a chain head', () => {
    expect(parseVerificationKeywords(verificationKeywords(digest, '960', chain))).toEqual({
      position: '960',
      digest,
      chainHead: chain,
    });
    expect(parseVerificationKeywords(verificationKeywords(digest, '960'))).toEqual({
      position: '960',
      digest,
    });
    expect(parseVerificationKeywords('quarterly, ledger')).toBeUndefined();
    expect(
      parseVerificationKeywords(`bahi-read-position=960 bahi-verification=${digest.slice(1)}`),
    ).toBeUndefined();
  });

  it('prints the chain head beside the code only when there is one', () => {
    expect(verificationLine(digest)).toBe('Verification code 0123-4567-89AB');
    expect(verificationLine(digest, { hash: chain, position: '960' })).toBe(
      'Verification code 0123-4567-89AB · Chain FEDC-BA98-7654 at 960',
    );
  });
});

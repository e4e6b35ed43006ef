import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHAIN_GENESIS, canonicalEvent, canonicalJson, chainHash } from './chain.ts';

const event = {
  position: 42n,
  id: '0b8f5c1e-7d0a-4c39-9a52-2f3c1d9e8a10',
  streamId: 'purchase-1',
  streamVersion: 0n,
  type: 'PurchaseRecorded',
  data: { rate: '250.00', quantity: '100', lot: { b: 1, a: [true, null, 'x'] } },
  metadata: { userId: null, correlationId: 'c', causationId: null, recordedAt: '2026-11-01T10:00:00.000Z' },
};

describe('the event chain (docs/event-store.md, The chain)', () => {
  it('writes canonical JSON: sorted keys, no whitespace, undefined members left out', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'é', null], c: undefined }, A: false })).toBe(
      '{"A":false,"a":{"d":[1,"é",null]},"b":1}',
    );
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
  });

  it('encodes an event as the documented array', () => {
    expect(canonicalEvent(event)).toBe(
      '["bahi.event.v1","42","0b8f5c1e-7d0a-4c39-9a52-2f3c1d9e8a10","purchase-1","0","PurchaseRecorded",' +
        '"2026-11-01T10:00:00.000Z",{"lot":{"a":[true,null,"x"],"b":1},"quantity":"100","rate":"250.00"},' +
        '{"causationId":null,"correlationId":"c","recordedAt":"2026-11-01T10:00:00.000Z","userId":null}]',
    );
  });

  it('hashes the previous hash as raw bytes, then the canonical event, and changes with any field', () => {
    const expected = createHash('sha256')
      .update(Buffer.alloc(32))
      .update(canonicalEvent(event))
      .digest('hex');
    const first = chainHash(CHAIN_GENESIS, event);
    expect(first).toBe(expected);
    expect(chainHash(first, event)).not.toBe(first);
    for (const changed of [
      { ...event, position: 43n },
      { ...event, streamVersion: 1n },
      { ...event, type: 'SaleRecorded' },
      { ...event, data: { ...event.data, rate: '250.01' } },
      { ...event, metadata: { ...event.metadata, userId: 'u' } },
    ])
      expect(chainHash(CHAIN_GENESIS, changed)).not.toBe(first);
    expect(() => chainHash('beef', event)).toThrow(RangeError);
  });
});

import { createHash } from 'node:crypto';
import type { RecordedEvent } from './types.ts';

/**
 * The SHA-256 chain over the event log: one function, used by backups (issue #26) and meant for a
 * tamper-evident log (issue #30). docs/event-store.md, "The chain", is its specification:
 *
 *   hash_0 = 32 zero bytes (GENESIS)
 *   hash_i = sha256(hash_{i-1} as 32 raw bytes || utf8(canonicalEvent(event_i)))
 *
 * canonicalEvent is the canonical JSON (below) of the array
 *   ["bahi.event.v1", position, id, streamId, streamVersion, type, recordedAt, data, metadata]
 * with position and streamVersion as decimal strings and recordedAt = metadata.recordedAt.
 */
export const CHAIN_GENESIS = '0'.repeat(64);

/**
 * Canonical JSON: no whitespace; object keys sorted by UTF-16 code units (JavaScript's default
 * sort), members whose value is undefined left out; strings, numbers, booleans and null as
 * JSON.stringify writes them. Equal JSON values always give equal text.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new TypeError(`canonical JSON has no ${value}`);
    if (typeof value === 'bigint') return JSON.stringify(value.toString());
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

/** What the chain hashes of one event: every field a restore writes back. */
export type ChainedEvent = Pick<
  RecordedEvent,
  'position' | 'id' | 'streamId' | 'streamVersion' | 'type' | 'data' | 'metadata'
>;

export function canonicalEvent(event: ChainedEvent): string {
  return canonicalJson([
    'bahi.event.v1',
    event.position.toString(),
    event.id,
    event.streamId,
    event.streamVersion.toString(),
    event.type,
    event.metadata?.recordedAt ?? null,
    event.data,
    event.metadata,
  ]);
}

/** hash_i from hash_{i-1} (64 hex digits) and event i: 64 hex digits. */
export function chainHash(previous: string, event: ChainedEvent): string {
  if (!/^[0-9a-f]{64}$/.test(previous)) throw new RangeError('the previous hash must be 64 hex digits');
  return createHash('sha256')
    .update(Buffer.from(previous, 'hex'))
    .update(canonicalEvent(event), 'utf8')
    .digest('hex');
}

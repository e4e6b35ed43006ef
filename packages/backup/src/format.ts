import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CHAIN_GENESIS, type ChainedEvent, canonicalJson, chainHash } from '@bahi/event-store';

/**
 * The backup file (docs/decisions.md, "Backups"): gzip'd NDJSON, one JSON document a line.
 *   line 1:    the header  {format, formatVersion, schemaVersion, source, createdAt, headPosition, chain}
 *   then:      one line per event in log order {position, id, streamId, streamVersion, type, data,
 *              metadata, hash}, hash being the chain's hash up to and including that event
 *   then:      one line per sign-in credential {credential: {userId, passwordHash, updatedAt}}: the
 *              password hashes live outside the log (services/command auth/credentials.ts)
 *   last line: the manifest {manifest: {events, headPosition, chainHead, schemaVersion, ...}}
 * The same manifest is written next to the file as <file>.manifest.json.
 */
export const BACKUP_FORMAT = 'bahi-event-log-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** The event store's schema (its last migration) the events were read from. */
  schemaVersion: number;
  source: 'postgres' | 'pglite';
  createdAt: string;
  /** Every event at or below this position, and none above it. */
  headPosition: string;
  chain: { algorithm: 'sha256'; genesis: string; spec: string };
}

export interface BackupManifest {
  file: string;
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  schemaVersion: number;
  source: 'postgres' | 'pglite';
  createdAt: string;
  completedAt: string;
  events: number;
  headPosition: string;
  /** The chain's last hash (the genesis for an empty log). */
  chainHead: string;
  /**
   * The stored seal's hash at the head when the backup was taken (issue #30; null: the seal had
   * not reached it). Differs from chainHead when the log had been altered after it was sealed.
   * Absent in backups taken before the seal existed.
   */
  sealedChainHead?: string | null;
  /** Sign-in credentials (password hashes) carried along, and the SHA-256 of their canonical JSON. */
  credentials: number;
  credentialsHash: string;
  bytes: number;
}

/** A user's password hash (argon2id), kept outside the event log. */
export interface BackupCredential {
  userId: string;
  passwordHash: string;
  updatedAt: string;
}

export const credentialsHash = (credentials: readonly BackupCredential[]) =>
  createHash('sha256').update(canonicalJson(credentials), 'utf8').digest('hex');

export interface BackupEventLine {
  position: string;
  id: string;
  streamId: string;
  streamVersion: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  hash: string;
}

export const CHAIN_SPEC = 'docs/event-store.md#the-chain';

/** A damaged or altered file: where, as precisely as the file allows. */
export class BackupRefused extends Error {
  override readonly name = 'BackupRefused';
  constructor(
    message: string,
    /** The position of the first event that fails, when it can be told. */
    readonly position?: string,
  ) {
    super(message);
  }
}

export function toChained(line: BackupEventLine): ChainedEvent {
  return {
    position: BigInt(line.position),
    id: line.id,
    streamId: line.streamId,
    streamVersion: BigInt(line.streamVersion),
    type: line.type,
    data: line.data,
    metadata: line.metadata as ChainedEvent['metadata'],
  };
}

/** The file's lines, gunzipped when it is gzip'd (a plain .ndjson is read as it is). */
async function* lines(path: string): AsyncGenerator<string> {
  const handle = await open(path, 'r');
  const magic = Buffer.alloc(2);
  await handle.read(magic, 0, 2, 0);
  await handle.close();
  const file = createReadStream(path);
  const gzipped = magic[0] === 0x1f && magic[1] === 0x8b;
  const input = gzipped ? pipeline(file, createGunzip(), () => {}) : file;
  input.setEncoding('utf8');
  let rest = '';
  for await (const chunk of input as AsyncIterable<string>) {
    rest += chunk;
    let end = rest.indexOf('\n');
    while (end >= 0) {
      yield rest.slice(0, end);
      rest = rest.slice(end + 1);
      end = rest.indexOf('\n');
    }
  }
  if (rest.length > 0) yield rest;
}

export interface VerifiedRead {
  header: BackupHeader;
  /** The events, each checked against the chain before it is handed out. */
  events: AsyncGenerator<BackupEventLine[]>;
  /** After `events` is drained: the sign-in credentials that followed them. */
  credentials: BackupCredential[];
  /** After `events` is drained: the manifest, checked against what was read. */
  manifest(): BackupManifest;
}

/** The manifest once every event is read: it must be there and match what was read. */
function verifiedManifest(read: {
  manifest: BackupManifest | undefined;
  count: number;
  hash: string;
  header: BackupHeader;
  credentials: BackupCredential[];
  last: string;
}): BackupManifest {
  const { manifest, count, hash, header, credentials, last } = read;
  const fail = (message: string): never => {
    throw new BackupRefused(message);
  };
  if (!manifest)
    fail(
      `The backup is incomplete: it ends after ${last} without its manifest (a copy cut short?). Nothing is restored.`,
    );
  if (
    manifest!.events !== count ||
    manifest!.chainHead !== hash ||
    manifest!.headPosition !== header!.headPosition
  )
    fail(
      `The backup's manifest does not match its events (${manifest!.events} events and chain head ${manifest!.chainHead} declared; ${count} and ${hash} read). Nothing is restored.`,
    );
  if (
    manifest!.credentials !== credentials.length ||
    manifest!.credentialsHash !== credentialsHash(credentials)
  )
    fail(
      'The backup is damaged or altered: its sign-in credentials do not match their hash in the manifest. Nothing is restored.',
    );
  return manifest!;
}

/**
 * Reads a backup file and verifies it while it streams: the header, each event's hash against
 * the chain recomputed from the events (the first that differs is refused with its position),
 * positions strictly increasing and at or below the header's head, then the manifest's count
 * and chain head. Events come in batches; a refusal is thrown from the iteration.
 */
export async function readBackup(path: string, batchSize = 500): Promise<VerifiedRead> {
  const source = lines(path);
  let lineNo = 1;
  let last = 'the start of the log';
  const fail = (message: string, position?: string): never => {
    throw new BackupRefused(message, position);
  };
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return fail(
        `The backup is damaged: line ${lineNo}, the event after ${last}, is not JSON. Nothing is restored.`,
      );
    }
  };
  const first = await source
    .next()
    .catch((error: Error) => fail(`The backup cannot be read (${error.message}). Nothing is restored.`));
  const header = (first.done ? undefined : parse(first.value)) as BackupHeader | undefined;
  if (header?.format !== BACKUP_FORMAT)
    fail(`${path} is not a Bahi backup (its first line is not a ${BACKUP_FORMAT} header).`);
  if (header!.formatVersion !== BACKUP_FORMAT_VERSION)
    fail(`${path} is a backup of format version ${header!.formatVersion}; this Bahi reads version 1.`);
  const head = BigInt(header!.headPosition);
  let manifest: BackupManifest | undefined;
  const credentials: BackupCredential[] = [];
  let count = 0;
  let hash = CHAIN_GENESIS;
  let previous = 0n;

  async function* events(): AsyncGenerator<BackupEventLine[]> {
    let batch: BackupEventLine[] = [];
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await source.next();
      } catch (error) {
        // A damaged gzip stream: the event after the last good one cannot be read.
        return fail(
          `The backup is damaged after ${last} (${(error as Error).message}). Nothing is restored.`,
        );
      }
      if (next.done) break;
      lineNo++;
      if (manifest) fail(`The backup is damaged: line ${lineNo} follows its manifest. Nothing is restored.`);
      if (next.value.length === 0) continue;
      const value = parse(next.value) as Partial<BackupEventLine> & {
        manifest?: BackupManifest;
        credential?: BackupCredential;
      };
      if (value.manifest) {
        manifest = value.manifest;
        continue;
      }
      if (value.credential) {
        credentials.push(value.credential);
        continue;
      }
      if (credentials.length > 0)
        fail(
          `The backup is damaged: line ${lineNo}, an event, follows the credentials. Nothing is restored.`,
        );
      const line = value as BackupEventLine;
      let position: bigint;
      try {
        position = BigInt(line.position);
      } catch {
        return fail(`The backup is damaged: the event after ${last} has no position. Nothing is restored.`);
      }
      if (position <= previous || position > head)
        fail(
          `The backup is damaged: the event at position ${line.position} is out of order (after ${last}, head ${head}). Nothing is restored.`,
          line.position,
        );
      let expected: string;
      try {
        expected = chainHash(hash, toChained(line));
      } catch {
        return fail(
          `The backup is damaged: the event at position ${line.position} is incomplete. Nothing is restored.`,
          line.position,
        );
      }
      if (expected !== line.hash)
        fail(
          `The backup is damaged or altered: the event at position ${line.position} does not match the chain (the first bad event). Nothing is restored.`,
          line.position,
        );
      hash = expected;
      previous = position;
      last = `position ${line.position}`;
      count++;
      batch.push(line);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  return {
    header: header!,
    events: events(),
    credentials,
    manifest: () => verifiedManifest({ manifest, count, hash, header: header!, credentials, last }),
  };
}

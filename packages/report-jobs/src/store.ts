import type { Redis } from 'ioredis';

/** A rendered file and what it was made from. */
export interface StoredFile {
  fileName: string;
  contentType: string;
  sha256: string;
  /** Who asked for it: only they (or an Admin) may fetch it by link. */
  ownerId: string;
  /** The event-store position the report was read at. */
  position: string;
  createdAt: string;
  body: Buffer;
}

/**
 * Where rendered files wait to be fetched, shared by the worker that renders and the query
 * process that streams them: Redis in distributed mode (the two are separate processes),
 * memory in standalone. A file's key is its job id, so a job that runs twice (a retry, a
 * crash) leaves one file.
 */
export interface FileStore {
  put(jobId: string, file: StoredFile, ttlSeconds: number): Promise<void>;
  get(jobId: string): Promise<StoredFile | undefined>;
  /** The requester stopped waiting: the worker tells them when the file is ready. */
  markDetached(jobId: string, ttlSeconds: number): Promise<void>;
  isDetached(jobId: string): Promise<boolean>;
}

export const DAY_SECONDS = 86_400;

export function redisFileStore(redis: Redis, prefix: string): FileStore {
  const key = (jobId: string, part: string) => `${prefix}:file:${jobId}:${part}`;
  return {
    async put(jobId, file, ttl) {
      const { body, ...meta } = file;
      await redis
        .multi()
        .set(key(jobId, 'body'), body, 'EX', ttl)
        .set(key(jobId, 'meta'), JSON.stringify(meta), 'EX', ttl)
        .exec();
    },
    async get(jobId) {
      const [meta, body] = await Promise.all([
        redis.get(key(jobId, 'meta')),
        redis.getBuffer(key(jobId, 'body')),
      ]);
      if (!meta || !body) return undefined;
      return { ...(JSON.parse(meta) as Omit<StoredFile, 'body'>), body };
    },
    async markDetached(jobId, ttl) {
      await redis.set(`${prefix}:detached:${jobId}`, '1', 'EX', ttl);
    },
    async isDetached(jobId) {
      return (await redis.exists(`${prefix}:detached:${jobId}`)) === 1;
    },
  };
}

/** Standalone: files in memory, expiring, and at most `maxFiles` of them (oldest dropped first). */
export function memoryFileStore(maxFiles = 200): FileStore {
  const files = new Map<string, { file: StoredFile; until: number }>();
  const detached = new Map<string, number>();
  const live = <T>(map: Map<string, T & { until: number }> | Map<string, number>, id: string) => {
    const entry = map.get(id);
    const until = typeof entry === 'number' ? entry : entry?.until;
    if (until === undefined) return false;
    if (until < Date.now()) {
      map.delete(id);
      return false;
    }
    return true;
  };
  return {
    async put(jobId, file, ttl) {
      files.delete(jobId);
      files.set(jobId, { file, until: Date.now() + ttl * 1000 });
      while (files.size > maxFiles) files.delete(files.keys().next().value!);
    },
    async get(jobId) {
      return live(files, jobId) ? files.get(jobId)?.file : undefined;
    },
    async markDetached(jobId, ttl) {
      detached.set(jobId, Date.now() + ttl * 1000);
    },
    async isDetached(jobId) {
      return live(detached, jobId);
    },
  };
}

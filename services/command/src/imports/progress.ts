import { HttpError } from '@bahi/server-kit';
import type { SqlClient } from '@bahi/sql-client';

/**
 * How far each running commit has come (issue #31). The commit's one transaction holds its
 * appends until the end, so nothing of it is in the log before then, and on PGlite, whose one
 * connection the transaction holds, every query (a session's user read included) waits for the
 * commit to finish. So the poll, GET /api/imports/progress?key=, is answered by the random key the
 * client sent with its commit, with no session: from the memory of the command process running it
 * and, on Postgres, where several copies of the command service may run behind the gateway, from
 * `imports.commit_progress`, which the running copy keeps on a connection of its own (outside the
 * commit's transaction), so a poll that reaches another copy answers too (docs/decisions.md,
 * "Importing: undo by reversal, and progress of a commit").
 */
export interface CommitProgress {
  id: string;
  state: 'checking' | 'recording';
  done: number;
  total: number;
}

/** The commits one command process runs (one board per SQL client: a copy has one). */
interface Board {
  running: Map<string, CommitProgress>;
  byKey: Map<string, CommitProgress>;
}
const boards = new WeakMap<SqlClient, Board>();
const boardOf = (sql: SqlClient): Board => {
  const board = boards.get(sql) ?? { running: new Map(), byKey: new Map() };
  boards.set(sql, board);
  return board;
};

/** A row older than this was left by a process that stopped mid-commit: no longer an answer. */
const STALE = "interval '10 minutes'";

/** At most about this many writes of the table per commit, besides each change of state. */
const WRITES_PER_COMMIT = 50;

/**
 * Called after each step (a test's seam, as the failpoints are): awaited by the commit, so a
 * test can look at the progress between two appends without timing anything.
 */
let onStep: ((progress: CommitProgress) => Promise<void> | void) | undefined;

export function setProgressListener(listener: typeof onStep): void {
  onStep = listener;
}

/**
 * The progress of the commit sent with this key: from this process's memory when it runs here;
 * else, on Postgres, as the copy running it last wrote it.
 */
export async function progressByKey(sql: SqlClient, key: string): Promise<CommitProgress | undefined> {
  const mine = boardOf(sql).byKey.get(key.toLowerCase());
  if (mine) return { ...mine };
  if (sql.kind !== 'postgres') return undefined;
  const { rows } = await sql.query<CommitProgress & Record<string, unknown>>(
    `SELECT id::text AS id, state, done, total FROM imports.commit_progress
      WHERE key = $1 AND updated_at > now() - ${STALE}`,
    [key.toLowerCase()],
  );
  const row = rows[0];
  return row ? { id: row.id, state: row.state, done: row.done, total: row.total } : undefined;
}

/** Runs a commit with its progress shown while it runs, and forgotten when it ends (either way). */
export async function withProgress<T>(
  sql: SqlClient,
  id: string,
  key: string | undefined,
  total: number,
  fn: (report: (state: CommitProgress['state'], done: number) => Promise<void>) => Promise<T>,
): Promise<T> {
  const board = boardOf(sql);
  if (board.running.has(id)) throw new HttpError(409, 'This import is being committed already.');
  const progress: CommitProgress = { id, state: 'checking', done: 0, total };
  board.running.set(id, progress);
  const k = key?.toLowerCase();
  if (k) board.byKey.set(k, progress);
  const shared = k && sql.kind === 'postgres' ? sharedRow(sql, k) : undefined;
  try {
    await shared?.write(progress);
    return await fn(async (state, done) => {
      progress.state = state;
      progress.done = done;
      await shared?.write(progress);
      await onStep?.({ ...progress });
    });
  } finally {
    board.running.delete(id);
    if (k && board.byKey.get(k) === progress) board.byKey.delete(k);
    await shared?.remove();
  }
}

/**
 * The commit's row in `imports.commit_progress`, written through the pool (never the commit's
 * transaction) at each change of state and every 1/50th of the records, and removed at the end.
 * Progress is advisory: a failed write does not fail the commit.
 */
function sharedRow(sql: SqlClient, key: string) {
  let written: CommitProgress | undefined;
  const quiet = async (text: string, params: unknown[]) => {
    try {
      await sql.query(text, params);
    } catch {
      // The poll falls back to the last row written (or a 404); the commit goes on.
    }
  };
  return {
    async write(p: CommitProgress) {
      const step = Math.max(1, Math.ceil(p.total / WRITES_PER_COMMIT));
      if (
        written &&
        written.state === p.state &&
        p.done !== p.total &&
        Math.floor(p.done / step) === Math.floor(written.done / step)
      )
        return;
      written = { ...p };
      await quiet(
        `INSERT INTO imports.commit_progress (key, id, state, done, total, updated_at)
         VALUES ($1, $2, $3, $4, $5, now())
         ON CONFLICT (key) DO UPDATE SET id = $2, state = $3, done = $4, total = $5, updated_at = now()`,
        [key, p.id, p.state, p.done, p.total],
      );
    },
    remove: () =>
      quiet(`DELETE FROM imports.commit_progress WHERE key = $1 OR updated_at < now() - ${STALE}`, [key]),
  };
}

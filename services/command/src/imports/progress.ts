import { HttpError } from '@bahi/server-kit';

/**
 * How far each running commit has come (issue #31), kept in the memory of the command process
 * that runs it: the commit's one transaction holds its appends until the end, so nothing of it
 * is in the log or in a table another connection can read before then - and on PGlite, whose one
 * connection the transaction holds, every query (a session's user read included) waits for the
 * commit to finish. So the poll, GET /api/imports/progress?key=, is answered from here by the
 * random key the client sent with its commit, with no session and no query (docs/decisions.md,
 * "Importing: undo by reversal, and progress of a commit").
 */
export interface CommitProgress {
  id: string;
  state: 'checking' | 'recording';
  done: number;
  total: number;
}

const running = new Map<string, CommitProgress>();
const byKey = new Map<string, CommitProgress>();

/**
 * Called after each step (a test's seam, as the failpoints are): awaited by the commit, so a
 * test can look at the progress between two appends without timing anything.
 */
let onStep: ((progress: CommitProgress) => Promise<void> | void) | undefined;

export function setProgressListener(listener: typeof onStep): void {
  onStep = listener;
}

/** The progress of the commit running in this process that was sent with this key, if one is. */
export function progressByKey(key: string): CommitProgress | undefined {
  const progress = byKey.get(key.toLowerCase());
  return progress ? { ...progress } : undefined;
}

/** Runs a commit with its progress shown while it runs, and forgotten when it ends (either way). */
export async function withProgress<T>(
  id: string,
  key: string | undefined,
  total: number,
  fn: (report: (state: CommitProgress['state'], done: number) => Promise<void>) => Promise<T>,
): Promise<T> {
  if (running.has(id)) throw new HttpError(409, 'This import is being committed already.');
  const progress: CommitProgress = { id, state: 'checking', done: 0, total };
  running.set(id, progress);
  if (key) byKey.set(key.toLowerCase(), progress);
  try {
    return await fn(async (state, done) => {
      progress.state = state;
      progress.done = done;
      await onStep?.({ ...progress });
    });
  } finally {
    running.delete(id);
    if (key && byKey.get(key.toLowerCase()) === progress) byKey.delete(key.toLowerCase());
  }
}

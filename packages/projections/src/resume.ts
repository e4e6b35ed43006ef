import type { ReadDb } from '@bahi/read-db';

/** A projection stopped by an event it could not apply starts again from its checkpoint. */
export async function resumeProjection(
  readDb: ReadDb,
  name: string,
): Promise<'resumed' | 'not-failed' | 'unknown'> {
  const result = await readDb
    .updateTable('projection_checkpoints')
    .set({ status: 'running', error: null, updated_at: new Date() })
    .where('name', '=', name)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return 'resumed';
  const row = await readDb
    .selectFrom('projection_checkpoints')
    .select('name')
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? 'not-failed' : 'unknown';
}

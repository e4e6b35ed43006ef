import { resolve } from 'node:path';
import { BackupBusy, backupDirectory, listBackups, startDailyBackups } from '@bahi/backup';
import { backupManifest, backupsStatus } from '@bahi/contracts';
import {
  HttpError,
  registerErrorMapping,
  type StandaloneEnv,
  type Storage,
  signedIn,
  writerOnly,
  type ZodTypeProvider,
} from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';

/**
 * The standalone's backups (README, "Backups"). Its PGlite belongs to this process, so its
 * backups are taken here: "Back up now" (Admin), and once a day when BAHI_BACKUP_DIR is set.
 * Without BAHI_BACKUP_DIR, "Back up now" writes to <BAHI_DATA_DIR>/backups.
 */
export function registerBackups(
  app: FastifyInstance,
  options: { storage: Storage; config: StandaloneEnv; log: (message: string, error?: unknown) => void },
): { stop(): Promise<void> } {
  const { config } = options;
  const daily = config.BAHI_BACKUP_DIR !== undefined;
  const directory = resolve(config.BAHI_BACKUP_DIR ?? resolve(config.BAHI_DATA_DIR, 'backups'));
  const backups = backupDirectory(options.storage.sql, directory, config.BAHI_BACKUP_KEEP);
  registerErrorMapping(app, (error) =>
    error instanceof BackupBusy ? new HttpError(409, error.message) : undefined,
  );
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/admin/backups',
    {
      schema: {
        summary: "The standalone's backups: where, how often, the last one (Admin)",
        tags: ['admin'],
        response: { 200: backupsStatus },
      },
    },
    async (request) => {
      const me = signedIn(request);
      if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see the backups.`);
      return {
        directory,
        daily,
        keep: config.BAHI_BACKUP_KEEP,
        running: backups.running,
        last: (await listBackups(directory))[0] ?? null,
      };
    },
  );
  api.post(
    '/api/admin/backups',
    {
      preValidation: writerOnly('backups'),
      schema: {
        summary: 'Back the event log up now, while the app goes on (Admin)',
        tags: ['admin'],
        response: { 201: backupManifest },
      },
    },
    async (_request, reply) => reply.status(201).send(await backups.take()),
  );
  const schedule = daily
    ? startDailyBackups({ dir: directory, take: () => backups.take(), log: options.log })
    : undefined;
  return { stop: async () => schedule?.stop() };
}

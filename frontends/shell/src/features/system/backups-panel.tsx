import { ApiError, ErrorAlert, errorText, formatDateTime, Panel, useSnackbar } from '@bahi/ui';
import { useMutation, useQuery, useQueryClient } from '@bahi/ui/screen';
import { Button, Spinner, Text } from '@fluentui/react-components';
import { useState } from 'react';
import { type Backup, backUpNow, backupsQuery } from './api.ts';
import { useFactsStyles } from './facts.ts';

const useStyles = useFactsStyles;

const megabytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The last backup's manifest, as facts. */
function LastBackup({ backup }: { backup: Backup }) {
  const styles = useStyles();
  return (
    <dl className={styles.facts} aria-label="Last backup">
      <dt>Taken</dt>
      <dd>{formatDateTime(backup.completedAt)}</dd>
      <dt>Events</dt>
      <dd>
        {backup.events} (up to position {backup.headPosition})
      </dd>
      <dt>File</dt>
      <dd>
        {backup.file} ({megabytes(backup.bytes)})
      </dd>
      <dt>Chain head</dt>
      <dd className={styles.hash}>{backup.chainHead}</dd>
    </dl>
  );
}

/**
 * Settings > System, Backups (issue #26): the standalone's last backup and "Back up now". A
 * distributed deployment has no such route (404): its backups are taken with npm run backup.
 */
export function BackupsPanel() {
  const styles = useStyles();
  const notify = useSnackbar();
  const client = useQueryClient();
  const status = useQuery(backupsQuery());
  const [error, setError] = useState<string | null>(null);
  const take = useMutation({
    mutationFn: backUpNow,
    onSuccess: (backup) => {
      setError(null);
      notify(`Backed up ${backup.events} events to ${backup.file}.`);
      return client.invalidateQueries({ queryKey: ['settings', 'backups'] });
    },
    onError: (e) => setError(errorText(e, 'Failed to take the backup.')),
  });
  const distributed = status.error instanceof ApiError && status.error.status === 404;
  const data = status.data;
  return (
    <Panel title="Backups" role="region" aria-label="Backups">
      {distributed ? (
        <Text>
          This deployment keeps its books on a Postgres server: back them up with <code>npm run backup</code>{' '}
          on a machine that reaches its database (README, Backups).
        </Text>
      ) : (
        <>
          <ErrorAlert
            text={status.isError ? errorText(status.error, 'Failed to fetch the backups.') : error}
          />
          {data ? (
            <Text size={200} className={styles.muted}>
              {data.daily
                ? `A backup is taken every day into ${data.directory}; the newest ${data.keep} are kept.`
                : `Backups are written to ${data.directory} (the newest ${data.keep} are kept). Set BAHI_BACKUP_DIR for a daily backup.`}
            </Text>
          ) : null}
          {data?.last ? <LastBackup backup={data.last} /> : data ? <Text>No backup yet.</Text> : null}
          <div className={styles.actions}>
            <Button
              appearance="primary"
              disabled={!data || take.isPending || data.running}
              onClick={() => take.mutate()}
            >
              Back up now
            </Button>
            {take.isPending ? <Spinner size="tiny" label="Backing up…" /> : null}
          </div>
        </>
      )}
    </Panel>
  );
}

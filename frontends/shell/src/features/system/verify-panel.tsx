import { ErrorAlert, errorText, formatCount, formatDateTime, Panel } from '@bahi/ui';
import { useQuery } from '@bahi/ui/screen';
import {
  Button,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
} from '@fluentui/react-components';
import { type Verification, verifyProgressQuery, verifyQuery } from './api.ts';
import { useFactsStyles } from './facts.ts';

const REASONS: Record<NonNullable<Verification['broken']>['reason'], string> = {
  altered: 'The event, or its seal, was changed after it was sealed.',
  missing: 'A sealed event is no longer in the log.',
  inserted: 'An event sits among sealed ones without a seal of its own.',
};

function Answer({ result }: { result: Verification }) {
  const styles = useFactsStyles();
  const broken = result.broken;
  return (
    <>
      <MessageBar intent={broken ? 'error' : 'success'} layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>
            {broken ? `Broken at position ${broken.position}` : `Intact up to position ${result.intactUpTo}`}
          </MessageBarTitle>
          {broken
            ? `${REASONS[broken.reason]} Nothing from position ${broken.position} on can be trusted; the log is intact up to position ${result.intactUpTo}.`
            : `Every one of the ${result.checked} sealed events matches its seal.`}
        </MessageBarBody>
      </MessageBar>
      <dl className={styles.facts} aria-label="Verification">
        <dt>Checked</dt>
        <dd>
          {result.checked} of {result.total} events, {formatDateTime(result.finishedAt)}
        </dd>
        {broken ? (
          <>
            <dt>Event</dt>
            <dd>
              {broken.type ? `${broken.type} in ${broken.streamId}` : 'none (deleted)'}
              {broken.recordedAt ? `, recorded ${formatDateTime(broken.recordedAt)}` : ''}
            </dd>
            <dt>Stored hash</dt>
            <dd className={styles.hash}>{broken.stored ?? 'none'}</dd>
            <dt>Recomputed</dt>
            <dd className={styles.hash}>{broken.recomputed ?? 'none'}</dd>
          </>
        ) : null}
        <dt>Chain head</dt>
        <dd className={styles.hash}>
          {result.chainHead} (at {result.intactUpTo})
        </dd>
        {result.unsealed > 0 ? (
          <>
            <dt>Not sealed yet</dt>
            <dd>{result.unsealed} newer events, not checked</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

/**
 * Settings > System, "Verify the books" (issue #30): recomputes the chain over the whole event
 * log against its seal and says whether it is intact, or where it breaks.
 */
export function VerifyPanel() {
  const styles = useFactsStyles();
  const verify = useQuery(verifyQuery());
  const progress = useQuery(verifyProgressQuery(verify.isFetching));
  const done = verify.isFetching && progress.data?.running ? progress.data : undefined;
  return (
    <Panel title="Verify the books" role="region" aria-label="Verify the books">
      <Text size={200} className={styles.muted}>
        Every event is sealed into a chain of hashes as it is recorded. Verifying recomputes the chain over
        the whole log: a change made to the books behind the app's back shows where it was made. Report files
        and backups carry the chain's head; <code>npm run verify</code> checks them.
      </Text>
      <ErrorAlert text={verify.isError ? errorText(verify.error, 'Failed to verify the books.') : null} />
      {verify.data && !verify.isFetching ? <Answer result={verify.data} /> : null}
      <div className={styles.actions}>
        <Button appearance="primary" disabled={verify.isFetching} onClick={() => void verify.refetch()}>
          Verify the books
        </Button>
        {verify.isFetching ? (
          <Spinner
            size="tiny"
            label={
              done?.total
                ? `Verifying: ${formatCount(done.checked)} of ${formatCount(done.total)} events…`
                : 'Verifying every event…'
            }
          />
        ) : null}
      </div>
    </Panel>
  );
}

import { quarantineInput } from '@bahi/contracts';
import { ErrorAlert, errorText, FormDialog, useSnackbar } from '@bahi/ui';
import { FormProvider, TextField, useSchemaForm } from '@bahi/ui/form';
import { useMutation, useQuery, useQueryClient } from '@bahi/ui/screen';
import { makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { failingEventQuery, quarantineEvent } from './api.ts';

const useStyles = makeStyles({
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    '& dt': { color: tokens.colorNeutralForeground3 },
    '& dd': { margin: 0, overflowWrap: 'anywhere' },
  },
  data: {
    margin: 0,
    maxHeight: '220px',
    overflow: 'auto',
    padding: tokens.spacingHorizontalS,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
});

/**
 * A stopped projection's failing event, whole (type, position, stream, error, data), and the
 * decision to set it aside for that projection with a required reason (docs/read-side.md,
 * "Quarantine"). The dialog is the confirmation: nothing happens until 'Quarantine' is pressed.
 */
export function QuarantineDialog(props: { projection: string; position: string; onClose(): void }) {
  const styles = useStyles();
  const notify = useSnackbar();
  const client = useQueryClient();
  const failing = useQuery(failingEventQuery(props.projection));
  const save = useMutation({
    mutationFn: (body: { position: string; reason: string }) => quarantineEvent(props.projection, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'projections'] }),
  });
  const event = failing.data?.event;
  const form = useSchemaForm(quarantineInput, { position: props.position, reason: '' });
  const submit = form.submit(
    async (values) => {
      const answer = await save.mutateAsync({ position: String(values.position), reason: values.reason });
      notify(answer.message);
      props.onClose();
    },
    { fallback: 'Failed to quarantine the event.' },
  );
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={`Quarantine the failing event of ${props.projection}?`}
        submitLabel="Quarantine"
        busy={form.formState.isSubmitting}
        submitDisabled={!event}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        {failing.isPending ? <Spinner size="small" label="Loading the failing event…" /> : null}
        <ErrorAlert
          text={failing.isError ? errorText(failing.error, 'Failed to load the failing event.') : null}
        />
        {event ? (
          <>
            <dl className={styles.facts} aria-label="Failing event">
              <dt>Type</dt>
              <dd>{event.type}</dd>
              <dt>Position</dt>
              <dd>{event.position}</dd>
              <dt>Stream</dt>
              <dd>
                {event.streamId} (version {event.streamVersion})
              </dd>
              <dt>Error</dt>
              <dd>{failing.data?.error ?? 'None recorded'}</dd>
            </dl>
            <section aria-label="Event data">
              <Text size={200} weight="semibold" block>
                Data
              </Text>
              <pre className={styles.data}>{JSON.stringify(event.data, null, 2)}</pre>
            </section>
            <Text size={200}>
              The event stays in the log and every other projection still applies it; only {props.projection}{' '}
              leaves it out, now and in every rebuild, and goes on at once.
            </Text>
          </>
        ) : null}
        <TextField
          name="reason"
          label="Reason"
          required
          hint="Why this event is set aside (3 characters or more)"
        />
      </FormDialog>
    </FormProvider>
  );
}

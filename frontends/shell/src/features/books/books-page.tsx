import { type BooksWriteAnswer, closeBooksInput, reopenBooksInput } from '@bahi/contracts';
import { formatBusinessDate } from '@bahi/contracts/books-words';
import { api, ErrorAlert, errorText, formatDateTime, Page, Panel, useSnackbar } from '@bahi/ui';
import { DateField, FormProvider, TextField, useSchemaForm } from '@bahi/ui/form';
import { booksCloseQuery, ScreenProviders, useMutation, useQuery, useQueryClient } from '@bahi/ui/screen';
import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  panels: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  form: { display: 'grid', gap: tokens.spacingVerticalM },
  status: { display: 'grid', gap: tokens.spacingVerticalXS },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', justifyContent: 'flex-end' },
});

/** Settings > Close the books (issue #30; Admin): the close as it stands, close to a date, reopen with a reason. */
export function BooksPage() {
  return (
    <ScreenProviders>
      <Books />
    </ScreenProviders>
  );
}

function useBooksWrite(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: object) => api.post<BooksWriteAnswer>(path, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['books'] }),
  });
}

function Books() {
  const styles = useStyles();
  const notify = useSnackbar();
  const close = useQuery(booksCloseQuery());
  const upTo = close.data?.closed_up_to ?? null;
  const closing = useBooksWrite('/books/close');
  const reopening = useBooksWrite('/books/reopen');
  const closeForm = useSchemaForm(closeBooksInput, { up_to: '' });
  const reopenForm = useSchemaForm(reopenBooksInput, { reason: '', up_to: '' });
  const submitClose = closeForm.submit(async (values) => {
    await closing.mutateAsync(values);
    notify(`The books are closed up to ${formatBusinessDate(values.up_to)}.`);
    closeForm.reset({ up_to: '' });
  });
  const submitReopen = reopenForm.submit(async (values) => {
    await reopening.mutateAsync(values);
    notify(
      values.up_to
        ? `The books are closed up to ${formatBusinessDate(values.up_to)}.`
        : 'The books are open.',
    );
    reopenForm.reset({ reason: '', up_to: '' });
  });
  const data = close.data;
  return (
    <Page title="Close the books">
      <Text>
        Once the books are closed up to a date, nothing dated on or before it can be recorded, changed or
        deleted, by anyone, until an Admin reopens them with a reason.
      </Text>
      <ErrorAlert text={close.isError ? errorText(close.error, 'Failed to load the close.') : null} />
      <Panel title="Current close" className={styles.status} aria-live="polite">
        {close.isPending ? (
          <Text>Loading…</Text>
        ) : upTo ? (
          <Text weight="semibold" size={400}>
            The books are closed up to {formatBusinessDate(upTo)}.
          </Text>
        ) : (
          <Text weight="semibold" size={400}>
            The books are open.
          </Text>
        )}
        {data?.at ? (
          <Text className={styles.muted}>
            {data.reason ? 'Reopened' : 'Closed'} by {data.by?.name ?? 'System/Deleted User'} on{' '}
            {formatDateTime(data.at)}
            {data.reason ? ` because: ${data.reason}` : ''}
          </Text>
        ) : null}
      </Panel>
      <div className={styles.panels}>
        <Panel title="Close up to a date">
          <FormProvider {...closeForm}>
            <form
              className={styles.form}
              aria-label="Close the books"
              onSubmit={(e) => {
                e.preventDefault();
                void submitClose();
              }}
            >
              <ErrorAlert text={closeForm.alert} />
              <DateField name="up_to" label="Close up to" required />
              <div className={styles.actions}>
                <Button type="submit" appearance="primary" disabled={closeForm.formState.isSubmitting}>
                  Close the books
                </Button>
              </div>
            </form>
          </FormProvider>
        </Panel>
        {upTo ? (
          <Panel title="Reopen">
            <FormProvider {...reopenForm}>
              <form
                className={styles.form}
                aria-label="Reopen the books"
                onSubmit={(e) => {
                  e.preventDefault();
                  void submitReopen();
                }}
              >
                <ErrorAlert text={reopenForm.alert} />
                <TextField name="reason" label="Reason" required />
                <DateField
                  name="up_to"
                  label="Keep closed up to"
                  hint="Leave empty to open the books entirely."
                />
                <div className={styles.actions}>
                  <Button type="submit" disabled={reopenForm.formState.isSubmitting}>
                    Reopen
                  </Button>
                </div>
              </form>
            </FormProvider>
          </Panel>
        ) : null}
      </div>
    </Page>
  );
}

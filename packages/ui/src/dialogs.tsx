import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert } from './error-alert.tsx';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(560px, calc(100vw - 24px))' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/** A form in a dialog: a failed save keeps it open with the error (spec section 7). */
export function FormDialog(props: {
  open: boolean;
  title: string;
  submitLabel?: string;
  busy?: boolean;
  error?: string | null;
  onClose(): void;
  onSubmit(): void;
  children: ReactNode;
}) {
  const styles = useStyles();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.busy) props.onSubmit();
  };
  return (
    <Dialog open={props.open} onOpenChange={(_, d) => !d.open && props.onClose()}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{props.title}</DialogTitle>
            <DialogContent className={styles.content}>
              <ErrorAlert text={props.error} />
              {props.children}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={props.onClose} disabled={props.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={props.busy}>
                {props.busy ? <Spinner size="tiny" /> : (props.submitLabel ?? 'Save')}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** Are you sure? A failed action closes it and the screen shows the error (spec section 7). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  onCancel(): void;
  onConfirm(): void;
}) {
  const styles = useStyles();
  return (
    <Dialog open={props.open} modalType="alert" onOpenChange={(_, d) => !d.open && props.onCancel()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogContent>{props.message}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={props.onCancel} disabled={props.busy}>
              Cancel
            </Button>
            <Button appearance="primary" onClick={props.onConfirm} disabled={props.busy}>
              {props.confirmLabel ?? 'Delete'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

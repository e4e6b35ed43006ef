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
import type { FormEvent } from 'react';
import type { ConfirmDialogProps, FormDialogProps } from './dialogs.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { handleFormKeyDown } from './keyboard.ts';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(560px, calc(100vw - 24px))' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export function FormDialogImpl(props: FormDialogProps) {
  const styles = useStyles();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.busy && !props.submitDisabled) props.onSubmit();
  };
  return (
    <Dialog open={props.open} onOpenChange={(_, d) => !d.open && props.onClose()}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={submit} onKeyDown={handleFormKeyDown} noValidate>
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
              {props.onSubmitAndNew ? (
                <Button
                  appearance="secondary"
                  disabled={props.busy || props.submitDisabled}
                  onClick={() => props.onSubmitAndNew?.()}
                >
                  Save and New
                </Button>
              ) : null}
              <Button appearance="primary" type="submit" disabled={props.busy || props.submitDisabled}>
                {props.busy ? <Spinner size="tiny" /> : (props.submitLabel ?? 'Save')}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

export function ConfirmDialogImpl(props: ConfirmDialogProps) {
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

import { Toast, Toaster, ToastTitle, useId, useToastController } from '@fluentui/react-components';
import { createContext, type ReactNode, useCallback, useContext, useMemo } from 'react';

export const SNACKBAR_MS = 6000;
type Intent = 'success' | 'error' | 'info' | 'warning';
type Notify = (text: string, intent?: Intent) => void;

const SnackbarContext = createContext<Notify>(() => {});

/** Short confirmations at the bottom of the screen; each closes after 6 seconds. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const toasterId = useId('snackbar');
  const { dispatchToast } = useToastController(toasterId);
  const notify = useCallback<Notify>(
    (text, intent = 'success') =>
      dispatchToast(
        <Toast>
          <ToastTitle>{text}</ToastTitle>
        </Toast>,
        { intent, timeout: SNACKBAR_MS, position: 'bottom' },
      ),
    [dispatchToast],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <Toaster toasterId={toasterId} />
    </SnackbarContext.Provider>
  );
}

export const useSnackbar = (): Notify => useContext(SnackbarContext);

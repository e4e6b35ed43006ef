import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';

export const SNACKBAR_MS = 6000;
type Intent = 'success' | 'error' | 'info' | 'warning';
type Notify = (text: string, intent?: Intent) => void;

const SnackbarContext = createContext<Notify>(() => {});

const useStyles = makeStyles({
  stack: {
    position: 'fixed',
    left: '50%',
    bottom: tokens.spacingVerticalXL,
    transform: 'translateX(-50%)',
    zIndex: 1000,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    width: 'max-content',
    maxWidth: 'calc(100vw - 32px)',
  },
  bar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS} ${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow16,
    backgroundColor: tokens.colorNeutralBackgroundInverted,
    color: tokens.colorNeutralForegroundInverted,
    borderLeft: `4px solid ${tokens.colorBrandBackground}`,
  },
  success: { borderLeftColor: tokens.colorPaletteGreenBorderActive },
  error: { borderLeftColor: tokens.colorPaletteRedBorderActive },
  warning: { borderLeftColor: tokens.colorPaletteDarkOrangeBorderActive },
  info: {},
  close: { color: tokens.colorNeutralForegroundInverted },
});

/**
 * Short confirmations at the bottom of the screen; each closes after 6 seconds (spec section
 * 9). A few lines of our own rather than Fluent's toaster, which would weigh on every first page.
 */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const styles = useStyles();
  const [items, setItems] = useState<{ id: number; text: string; intent: Intent }[]>([]);
  const next = useRef(0);
  const close = useCallback((id: number) => setItems((list) => list.filter((i) => i.id !== id)), []);
  const notify = useCallback<Notify>(
    (text, intent = 'success') => {
      const id = ++next.current;
      setItems((list) => [...list, { id, text, intent }]);
      setTimeout(() => close(id), SNACKBAR_MS);
    },
    [close],
  );
  return (
    <SnackbarContext.Provider value={notify}>
      {children}
      <div className={styles.stack} role="status" aria-live="polite">
        {items.map((i) => (
          <div key={i.id} className={mergeClasses(styles.bar, styles[i.intent])} data-intent={i.intent}>
            <span>{i.text}</span>
            <Button
              appearance="transparent"
              size="small"
              className={styles.close}
              icon={<DismissRegular />}
              aria-label="Close"
              onClick={() => close(i.id)}
            />
          </div>
        ))}
      </div>
    </SnackbarContext.Provider>
  );
}

export const useSnackbar = (): Notify => useContext(SnackbarContext);

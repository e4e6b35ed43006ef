import { ErrorAlert, Panel, useSession } from '@bahi/ui';
import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { ShieldErrorRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useNavigate } from 'react-router';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  card: {
    maxWidth: '520px',
    width: '100%',
    padding: tokens.spacingHorizontalXXL,
    gap: tokens.spacingVerticalM,
  },
  icon: { fontSize: '40px', color: tokens.colorPaletteRedForeground1 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
});

/**
 * Blocks the app while the license is not valid (spec section 2). The live stream (opened by
 * the shell while signed in) re-validates when the license changes; Retry asks the server to
 * re-read its license now.
 */
export function LicenseInvalidPage() {
  const styles = useStyles();
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const retry = async () => {
    setBusy(true);
    setError(null);
    try {
      await session.retryLicense();
    } catch {
      setError('Failed to re-validate license.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={styles.page}>
      <Panel className={styles.card} role="alert">
        <ShieldErrorRegular className={styles.icon} />
        <Text as="h1" size={600} weight="semibold">
          License Invalid
        </Text>
        <Text data-testid="license-reason">{session.license?.reason ?? 'The license is not valid.'}</Text>
        <ErrorAlert text={error} />
        <div className={styles.actions}>
          <Button appearance="primary" onClick={() => void retry()} disabled={busy}>
            {busy ? <Spinner size="tiny" /> : 'Retry License Check'}
          </Button>
          <Button
            onClick={() => {
              session.logout();
              navigate('/login');
            }}
          >
            Logout
          </Button>
        </div>
      </Panel>
    </div>
  );
}

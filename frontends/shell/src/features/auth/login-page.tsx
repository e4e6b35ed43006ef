import { ErrorAlert, errorText, Panel, useSession } from '@bahi/ui';
import { Button, Field, Input, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { type FormEvent, useEffect, useRef, useState } from 'react';

export const LOGIN_CARD_MAX_WIDTH = 400;

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
  // At most 400 px as drawn, padding included (spec section 9).
  card: {
    width: '100%',
    maxWidth: `${LOGIN_CARD_MAX_WIDTH}px`,
    padding: tokens.spacingHorizontalXXL,
    boxSizing: 'border-box',
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/** Admin Login (spec section 2): email and password required; the server's error in an alert. */
export function LoginPage() {
  const styles = useStyles();
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The email field has the focus on load: staff type at once.
  const emailRef = useRef<HTMLInputElement>(null);
  useEffect(() => emailRef.current?.focus(), []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!email.trim() || !password) return;
    setBusy(true);
    setError(null);
    try {
      await session.login(email.trim(), password);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <div className={styles.page}>
      <Panel className={styles.card}>
        <form className={styles.form} onSubmit={submit} noValidate>
          <Text as="h1" size={600} weight="semibold">
            Admin Login
          </Text>
          <Text>Sign in to Bahi.</Text>
          <ErrorAlert text={error} />
          <Field
            label="Email"
            required
            validationMessage={touched && !email.trim() ? 'Email is required' : undefined}
          >
            <Input
              ref={emailRef}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(_, d) => setEmail(d.value)}
            />
          </Field>
          <Field
            label="Password"
            required
            validationMessage={touched && !password ? 'Password is required' : undefined}
          >
            <Input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(_, d) => setPassword(d.value)}
            />
          </Field>
          <Button appearance="primary" type="submit" disabled={busy}>
            {busy ? <Spinner size="tiny" /> : 'Sign In'}
          </Button>
        </form>
      </Panel>
    </div>
  );
}

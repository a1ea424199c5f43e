import { Alert, Anchor, Button, Center, Divider, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { login } from '../../../api/auth';
import { useLoginMethods } from '../hooks/useLoginMethods';
import { AuthFrame } from './AuthFrame';
import { GoogleSignInButton } from './GoogleSignInButton';

/** Shown when single sign-on sent the browser back with ?sso=failed. */
export const SSO_FAILED_MESSAGE = 'Sign in with Google did not succeed. Please try again.';

/** Shown when the server ended the session (logout elsewhere, password change, an admin): ?session=ended. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

/** /login: Google single sign-on and, when offered, email and password. Success reloads the console. */
export function LoginPage() {
  const [params] = useSearchParams();
  const methods = useLoginMethods();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(params.get('sso') === 'failed' ? SSO_FAILED_MESSAGE : null);
  const [busy, setBusy] = useState(false);
  const sessionEnded = params.get('session') === 'ended' && !error;

  const canSubmit = email.trim().length > 0 && password.length > 0 && !busy;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    login(email, password)
      .then(() => window.location.assign('/'))
      .catch((e: unknown) => {
        setError(e instanceof Error ? e.message : 'Could not sign in.');
        setBusy(false);
      });
  };

  return (
    <AuthFrame title="Sign in">
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {sessionEnded && (
        <Alert color="blue" variant="light" role="status">
          {SESSION_ENDED_MESSAGE}
        </Alert>
      )}
      {methods.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading sign-in options" />
        </Center>
      ) : (
        <Stack gap="md">
          {methods.showGoogle && <GoogleSignInButton />}
          {methods.showGoogle && methods.showGeneric && <Divider label="or" labelPosition="center" />}
          {methods.showGeneric && (
            <form onSubmit={handleSubmit} noValidate>
              <Stack gap="sm">
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="username"
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  data-autofocus
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
                <Button type="submit" disabled={!canSubmit} loading={busy} fullWidth>
                  Log In
                </Button>
                <Anchor component={Link} to="/forgot-password" size="sm" ta="center">
                  Forgot password?
                </Anchor>
              </Stack>
            </form>
          )}
        </Stack>
      )}
    </AuthFrame>
  );
}

import { Alert, Anchor, Button, Center, Divider, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../../lib/mutation-state';
import { schemaResolver } from '../../../lib/schema-resolver';
import { loginInputSchema, useLogin, type LoginInput } from '../api/login';
import { useLoginMethods } from '../hooks/useLoginMethods';
import { AuthFrame } from './AuthFrame';
import { GoogleSignInButton } from './GoogleSignInButton';
import { TwoFactorCodeStep } from './TwoFactorCodeStep';

/** Shown when single sign-on sent the browser back with ?sso=failed. */
export const SSO_FAILED_MESSAGE = 'Sign in with Google did not succeed. Please try again.';

/** Shown when the server ended the session (logout elsewhere, password change, an admin): ?session=ended. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

/** /login: Google single sign-on and, when offered, email and password. Success reloads the console. */
export function LoginPage() {
  const [params] = useSearchParams();
  const methods = useLoginMethods();
  const login = useLogin();
  const form = useForm<LoginInput>({ initialValues: { email: '', password: '' }, validate: schemaResolver(loginInputSchema) });
  // The password was right and the account uses two-factor sign-in: the code comes next.
  const needsCode = login.data !== undefined && 'twoFactorRequired' in login.data;
  // Busy until the page reloads: a successful login does not give the button back.
  const isBusy = login.isPending || login.isSuccess;
  const canSubmit = form.isValid() && !isBusy;

  const ssoFailed = params.get('sso') === 'failed' && login.isIdle;
  const error = login.error ? errorText(login.error, 'Could not sign in.') : ssoFailed ? SSO_FAILED_MESSAGE : null;
  const sessionEnded = params.get('session') === 'ended' && !error;

  const handleSubmit = form.onSubmit((values) => {
    if (!canSubmit) return;
    login.mutate(values, {
      onSuccess: (answer) => {
        if (!('twoFactorRequired' in answer)) window.location.assign('/');
      },
    });
  });

  if (needsCode) {
    return (
      <AuthFrame title="Two-factor sign-in">
        <TwoFactorCodeStep />
      </AuthFrame>
    );
  }

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
                <TextInput label="Email" type="email" autoComplete="username" {...form.getInputProps('email', { withError: false })} data-autofocus />
                <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps('password', { withError: false })} />
                <Button type="submit" disabled={!canSubmit} loading={isBusy} fullWidth>
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

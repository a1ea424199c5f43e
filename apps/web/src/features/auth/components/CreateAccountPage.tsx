import { Alert, Button, Center, Divider, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ERROR_MESSAGES } from '@plinth/shared';
import { createAccount } from '../../../api/auth';
import { accountLinkKey, useAccountLink } from '../hooks/useAccountLink';
import { useLoginMethods } from '../hooks/useLoginMethods';
import { AuthFrame, BackToLoginLink } from './AuthFrame';
import { GoogleSignInButton } from './GoogleSignInButton';
import { isPasswordAccepted, PasswordChecklist } from './PasswordChecklist';

/**
 * /create-account?id=…: finishes an invitation (or the first-admin setup link, which also asks
 * for the email). Shown only while the link is valid.
 */
export function CreateAccountPage() {
  const [params] = useSearchParams();
  const resetUrlId = params.get('id');
  const link = useAccountLink(resetUrlId);
  const methods = useLoginMethods();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!resetUrlId) return <Navigate to="/login" replace />;

  const isSetup = link.data?.kind === 'setup';
  const linkValid = link.isSuccess && link.data.kind !== 'reset_password';
  const canSubmit = linkValid && isPasswordAccepted(password) && (!isSetup || email.trim().length > 0) && !busy;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    createAccount({
      firstName: firstName.trim(),
      lastName: lastName.trim(),
      password,
      resetUrlId,
      ...(isSetup ? { email: email.trim().toLowerCase() } : {}),
    })
      .then(() => {
        queryClient.removeQueries({ queryKey: accountLinkKey(resetUrlId) });
        notifications.show({ color: 'teal', message: 'Your account was created. You can now log in.' });
        navigate('/login', { replace: true });
      })
      .catch((e: unknown) => {
        setError(e instanceof Error ? e.message : ERROR_MESSAGES.CreateAccountURLExpired);
        setBusy(false);
      });
  };

  let body;
  if (link.isPending || methods.isPending) {
    body = (
      <Center py="md">
        <Loader size="sm" aria-label="Checking the link" />
      </Center>
    );
  } else if (!linkValid) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {ERROR_MESSAGES.CreateAccountURLExpired}
      </Alert>
    );
  } else {
    body = (
      <Stack gap="md">
        {isSetup ? (
          <Text size="sm" c="dimmed">
            This link sets up the first Plinth administrator. Choose the email and password you will sign in with.
          </Text>
        ) : (
          link.data.email && (
            <Text size="sm" c="dimmed">
              Creating the account for <strong>{link.data.email}</strong>.
            </Text>
          )
        )}
        {methods.showGoogle && !isSetup && <GoogleSignInButton />}
        {methods.showGoogle && !isSetup && methods.showGeneric && <Divider label="or" labelPosition="center" />}
        {(methods.showGeneric || isSetup) && (
          <form onSubmit={handleSubmit} noValidate>
            <Stack gap="sm">
              {isSetup && (
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="username"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                />
              )}
              <Group grow align="flex-start">
                <TextInput
                  label="First name"
                  autoComplete="given-name"
                  maxLength={100}
                  value={firstName}
                  onChange={(e) => setFirstName(e.currentTarget.value)}
                />
                <TextInput
                  label="Last name"
                  autoComplete="family-name"
                  maxLength={100}
                  value={lastName}
                  onChange={(e) => setLastName(e.currentTarget.value)}
                />
              </Group>
              <PasswordInput
                label="Password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <PasswordChecklist password={password} />
              {error && (
                <Alert color="red" variant="light" role="alert">
                  {error}
                </Alert>
              )}
              <Button type="submit" disabled={!canSubmit} loading={busy} fullWidth>
                Create Password
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    );
  }

  return (
    <AuthFrame title="Create your account" footer={<BackToLoginLink />}>
      {body}
    </AuthFrame>
  );
}

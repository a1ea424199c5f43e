import { Alert, Button, Center, Loader, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ERROR_MESSAGES } from '@plinth/shared';
import { changePassword } from '../../../api/auth';
import { accountLinkKey, useAccountLink } from '../hooks/useAccountLink';
import { AuthFrame, BackToLoginLink } from './AuthFrame';
import { isPasswordAccepted, PasswordChecklist } from './PasswordChecklist';

/** /reset-password?id=…: checks the link, then lets the user choose a new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const resetUrlId = params.get('id');
  const link = useAccountLink(resetUrlId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!resetUrlId) return <Navigate to="/login" replace />;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isPasswordAccepted(password) || busy) return;
    setBusy(true);
    setError(null);
    changePassword(resetUrlId, password)
      .then(() => {
        queryClient.removeQueries({ queryKey: accountLinkKey(resetUrlId) });
        notifications.show({ color: 'teal', message: 'Your password was changed. You can now log in.' });
        navigate('/login', { replace: true });
      })
      .catch((e: unknown) => {
        setError(e instanceof Error ? e.message : ERROR_MESSAGES.ResetPasswordURLExpired);
        setBusy(false);
      });
  };

  let body;
  if (link.isPending) {
    body = (
      <Center py="md">
        <Loader size="sm" aria-label="Checking the link" />
      </Center>
    );
  } else if (link.isError) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {link.error.message || ERROR_MESSAGES.ResetPasswordURLExpired}
      </Alert>
    );
  } else {
    body = (
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          {link.data.email && (
            <input type="email" name="email" autoComplete="username" value={link.data.email} readOnly hidden />
          )}
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            data-autofocus
          />
          <PasswordChecklist password={password} />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" disabled={!isPasswordAccepted(password)} loading={busy} fullWidth>
            Reset My Password
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <AuthFrame title="Reset password" footer={<BackToLoginLink />}>
      {body}
    </AuthFrame>
  );
}

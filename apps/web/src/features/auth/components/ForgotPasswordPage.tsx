import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ERROR_MESSAGES } from '@plinth/shared';
import { requestPasswordReset } from '../../../api/auth';
import { ApiError } from '../../../lib/api-client';
import { AuthFrame, BackToLoginLink } from './AuthFrame';

const SENT_MESSAGE = 'Reset password confirmation email sent';
const FAILED_MESSAGE = 'There was an issue sending reset password email';

/**
 * The failure text: the catalogue message for a known response code, the server's own words when
 * it says how long to wait (429), else the generic one.
 */
function resetRequestError(error: unknown): string {
  if (!(error instanceof ApiError)) return FAILED_MESSAGE;
  if (error.status === 429 || (error.response && error.response in ERROR_MESSAGES)) return error.message;
  return FAILED_MESSAGE;
}

/** /forgot-password: asks the server to mail a reset link. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || busy) return;
    setBusy(true);
    setError(null);
    setSent(false);
    requestPasswordReset(email)
      .then(() => setSent(true))
      .catch((e: unknown) => setError(resetRequestError(e)))
      .finally(() => setBusy(false));
  };

  return (
    <AuthFrame title="Forgot password" footer={<BackToLoginLink />}>
      <Text size="sm" c="dimmed">
        Enter the email address of your account and we will send you a link to choose a new password.
      </Text>
      {sent && (
        <Alert color="teal" variant="light" role="status">
          {SENT_MESSAGE}
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            data-autofocus
          />
          <Button type="submit" disabled={!email.trim()} loading={busy} fullWidth>
            Reset My Password
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}

import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ERROR_MESSAGES } from '@plinth/shared';
import { ApiError } from '../../../lib/api-client';
import { schemaResolver } from '../../../lib/schema-resolver';
import { requestPasswordResetInputSchema, useRequestPasswordReset, type RequestPasswordResetInput } from '../api/request-password-reset';
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
  const request = useRequestPasswordReset();
  const form = useForm<RequestPasswordResetInput>({ initialValues: { email: '' }, validate: schemaResolver(requestPasswordResetInputSchema) });

  const handleSubmit = form.onSubmit((values) => {
    if (request.isPending) return;
    request.mutate(values);
  });

  return (
    <AuthFrame title="Forgot password" footer={<BackToLoginLink />}>
      <Text size="sm" c="dimmed">
        Enter the email address of your account and we will send you a link to choose a new password.
      </Text>
      {request.isSuccess && (
        <Alert color="teal" variant="light" role="status">
          {SENT_MESSAGE}
        </Alert>
      )}
      {request.isError && (
        <Alert color="red" variant="light" role="alert">
          {resetRequestError(request.error)}
        </Alert>
      )}
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps('email', { withError: false })} data-autofocus />
          <Button type="submit" disabled={!form.isValid()} loading={request.isPending} fullWidth>
            Reset My Password
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}

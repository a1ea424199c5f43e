import { Alert, Center, Loader, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ERROR_MESSAGES } from '@plinth/shared';
import { errorText } from '../../../lib/mutation-state';
import { schemaResolver } from '../../../lib/schema-resolver';
import { changePasswordInputSchema, useChangePassword } from '../api/change-password';
import { useAccountLink } from '../api/check-reset-link';
import { AuthFrame, BackToLoginLink } from './AuthFrame';
import { NewPasswordFields } from './NewPasswordFields';

/** /reset-password?id=…: checks the link, then lets the user choose a new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const resetUrlId = params.get('id');
  const link = useAccountLink(resetUrlId);
  const navigate = useNavigate();
  const change = useChangePassword();
  const form = useForm({ initialValues: { password: '' }, validate: schemaResolver(changePasswordInputSchema) });
  // Busy until the page has moved on to /login: a successful change does not give the button back.
  const isBusy = change.isPending || change.isSuccess;

  if (!resetUrlId) return <Navigate to="/login" replace />;

  const handleSubmit = form.onSubmit(({ password }) => {
    if (isBusy) return;
    change.mutate(
      { resetUrlId, password },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: 'Your password was changed. You can now log in.' });
          navigate('/login', { replace: true });
        },
      },
    );
  });

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
          {link.data.email && <input type="email" name="email" autoComplete="username" value={link.data.email} readOnly hidden />}
          <NewPasswordFields
            label="New Password"
            inputProps={form.getInputProps('password', { withError: false })}
            password={form.values.password}
            error={change.error ? errorText(change.error, ERROR_MESSAGES.ResetPasswordURLExpired) : null}
            submitLabel="Reset My Password"
            isSubmitDisabled={!form.isValid()}
            isBusy={isBusy}
            isFocused
          />
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

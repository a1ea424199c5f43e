import { Alert, Center, Divider, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ERROR_MESSAGES } from '@plinth/shared';
import { errorText } from '../../../lib/mutation-state';
import { schemaResolver } from '../../../lib/schema-resolver';
import { useAccountLink } from '../api/check-reset-link';
import { createAccountInputSchema, createSetupAccountInputSchema, useCreateAccount } from '../api/create-account';
import { useLoginMethods } from '../hooks/useLoginMethods';
import { AuthFrame, BackToLoginLink } from './AuthFrame';
import { GoogleSignInButton } from './GoogleSignInButton';
import { NewPasswordFields } from './NewPasswordFields';

type CreateAccountValues = { firstName: string; lastName: string; email: string; password: string };

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
  const create = useCreateAccount();
  const isSetup = link.data?.kind === 'setup';
  const form = useForm<CreateAccountValues>({
    initialValues: { firstName: '', lastName: '', email: '', password: '' },
    validate: (values) => schemaResolver<CreateAccountValues>(isSetup ? createSetupAccountInputSchema : createAccountInputSchema)(values),
  });
  // Busy until the page has moved on to /login: a successful creation does not give the button back.
  const isBusy = create.isPending || create.isSuccess;

  if (!resetUrlId) return <Navigate to="/login" replace />;

  const linkValid = link.isSuccess && link.data.kind !== 'reset_password';
  const canSubmit = linkValid && form.isValid() && !isBusy;

  const handleSubmit = form.onSubmit(({ firstName, lastName, email, password }) => {
    if (!canSubmit) return;
    create.mutate(
      { firstName, lastName, password, resetUrlId, ...(isSetup ? { email } : {}) },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: 'Your account was created. You can now log in.' });
          navigate('/login', { replace: true });
        },
      },
    );
  });

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
                <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email', { withError: false })} />
              )}
              <Group grow align="flex-start">
                <TextInput label="First name" autoComplete="given-name" maxLength={100} {...form.getInputProps('firstName', { withError: false })} />
                <TextInput label="Last name" autoComplete="family-name" maxLength={100} {...form.getInputProps('lastName', { withError: false })} />
              </Group>
              <NewPasswordFields
                label="Password"
                inputProps={form.getInputProps('password', { withError: false })}
                password={form.values.password}
                error={create.error ? errorText(create.error, ERROR_MESSAGES.CreateAccountURLExpired) : null}
                submitLabel="Create Password"
                isSubmitDisabled={!canSubmit}
                isBusy={isBusy}
              />
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

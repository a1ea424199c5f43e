import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { errorText } from '../../../lib/mutation-state';
import { schemaResolver } from '../../../lib/schema-resolver';
import { twoFactorCodeInputSchema, useCompleteTwoFactorLogin, type TwoFactorCodeInput } from '../api/complete-two-factor-login';

/** The sign-in's second step: the code from the authenticator app, or a recovery code. Success reloads the console. */
export function TwoFactorCodeStep() {
  const complete = useCompleteTwoFactorLogin();
  const form = useForm<TwoFactorCodeInput>({ initialValues: { code: '' }, validate: schemaResolver(twoFactorCodeInputSchema) });
  const isBusy = complete.isPending || complete.isSuccess;

  const handleSubmit = form.onSubmit((values) => {
    if (isBusy) return;
    complete.mutate(values, { onSuccess: () => window.location.assign('/') });
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        {complete.error && (
          <Alert color="red" variant="light" role="alert">
            {errorText(complete.error, 'Could not sign in.')}
          </Alert>
        )}
        <Text size="sm">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</Text>
        <TextInput
          label="Authentication code"
          autoComplete="one-time-code"
          inputMode="text"
          {...form.getInputProps('code', { withError: false })}
          data-autofocus
        />
        <Button type="submit" disabled={!form.isValid() || isBusy} loading={isBusy} fullWidth>
          Verify
        </Button>
      </Stack>
    </form>
  );
}

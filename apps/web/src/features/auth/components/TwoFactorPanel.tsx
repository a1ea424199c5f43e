import { Alert, Button, Code, Group, Image, List, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { TwoFactorSetup } from '@plinth/shared';
import { errorText } from '../../../lib/mutation-state';
import { schemaResolver } from '../../../lib/schema-resolver';
import { twoFactorCodeInputSchema, type TwoFactorCodeInput } from '../api/complete-two-factor-login';
import { disableTwoFactorInputSchema, useDisableTwoFactor, type DisableTwoFactorInput } from '../api/disable-two-factor';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import { useSetupTwoFactor } from '../api/setup-two-factor';

export const TWO_FACTOR_REQUIRED_TEXT = 'Your organization requires two-factor sign-in. Set it up to continue.';

/**
 * The signed-in user's two-factor sign-in: set it up (QR code and secret, a code to confirm, the
 * recovery codes once), or turn it off with the password and a code. `onRecoveryCodesSaved` runs
 * when the user has put the recovery codes away (the enrolment page reloads the console then).
 */
export function TwoFactorPanel({ onRecoveryCodesSaved }: { onRecoveryCodesSaved?: () => void }) {
  const status = useTwoFactorStatus();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes) {
    return (
      <RecoveryCodes
        codes={recoveryCodes}
        onSaved={() => {
          setRecoveryCodes(null);
          onRecoveryCodesSaved?.();
        }}
      />
    );
  }
  if (status.isPending) return <Loader size="sm" aria-label="Loading two-factor sign-in" />;
  if (status.isError) return <Alert color="red">{errorText(status.error, 'Could not load two-factor sign-in.')}</Alert>;
  if (!status.data.available) {
    return <Text>This account signs in through its identity provider, which handles two-factor sign-in.</Text>;
  }
  if (status.data.enabled) {
    return (
      <Stack gap="md">
        <Alert color="green" role="status">
          Two-factor sign-in is on. Recovery codes left: {status.data.recoveryCodesLeft}.
        </Alert>
        <DisableForm />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {status.data.required && (
        <Alert color="yellow" role="alert">
          {TWO_FACTOR_REQUIRED_TEXT}
        </Alert>
      )}
      <EnrolForm onEnabled={setRecoveryCodes} />
    </Stack>
  );
}

function EnrolForm({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const setup = useSetupTwoFactor();
  const enable = useEnableTwoFactor();
  const form = useForm<TwoFactorCodeInput>({ initialValues: { code: '' }, validate: schemaResolver(twoFactorCodeInputSchema) });
  const handleSubmit = form.onSubmit((values) => enable.mutate(values, { onSuccess: (answer) => onEnabled(answer.recoveryCodes) }));

  if (!setup.data) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text>Sign in with a code from an authenticator app on your phone as well as your password.</Text>
        {setup.error && <Alert color="red">{errorText(setup.error, 'Could not start the set-up.')}</Alert>}
        <Button onClick={() => setup.mutate()} loading={setup.isPending}>
          Set up two-factor sign-in
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <SetupSecret setup={setup.data} />
        {enable.error && (
          <Alert color="red" role="alert">
            {errorText(enable.error, 'Could not turn on two-factor sign-in.')}
          </Alert>
        )}
        <TextInput label="Code from the app" autoComplete="one-time-code" {...form.getInputProps('code', { withError: false })} />
        <Group>
          <Button type="submit" disabled={!form.isValid()} loading={enable.isPending}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SetupSecret({ setup }: { setup: TwoFactorSetup }) {
  return (
    <Stack gap="xs">
      <Text>Scan this QR code with your authenticator app, then enter the code it shows.</Text>
      <Image src={setup.qrCodeDataUrl} alt="QR code for your authenticator app" w={200} h={200} />
      <Text size="sm">
        Or type this key into the app: <Code data-testid="two-factor-secret">{setup.secret}</Code>
      </Text>
    </Stack>
  );
}

function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="green" role="status">
        Two-factor sign-in is on.
      </Alert>
      <Text>
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.
      </Text>
      <List aria-label="Recovery codes" spacing={2}>
        {codes.map((code) => (
          <List.Item key={code}>
            <Code>{code}</Code>
          </List.Item>
        ))}
      </List>
      <Group>
        <Button onClick={onSaved}>I have saved my recovery codes</Button>
      </Group>
    </Stack>
  );
}

function DisableForm() {
  const disable = useDisableTwoFactor();
  const form = useForm<DisableTwoFactorInput>({ initialValues: { password: '', code: '' }, validate: schemaResolver(disableTwoFactorInputSchema) });
  const handleSubmit = form.onSubmit((values) => disable.mutate(values, { onSuccess: () => form.reset() }));
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <Text fw={600}>Turn off two-factor sign-in</Text>
        {disable.error && (
          <Alert color="red" role="alert">
            {errorText(disable.error, 'Could not turn off two-factor sign-in.')}
          </Alert>
        )}
        <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps('password', { withError: false })} />
        <TextInput label="Code from the app or a recovery code" autoComplete="one-time-code" {...form.getInputProps('code', { withError: false })} />
        <Group>
          <Button type="submit" color="red" variant="light" disabled={!form.isValid()} loading={disable.isPending}>
            Turn off
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import { Anchor, Container, Stack, Title } from '@mantine/core';
import { useSignOut } from '../api/logout';
import { AuthFrame } from './AuthFrame';
import { TwoFactorPanel } from './TwoFactorPanel';

/** /account/two-factor inside the console: the user's own two-factor sign-in. */
export function TwoFactorPage() {
  return (
    <Container size="sm" py="md">
      <Stack gap="md">
        <Title order={2}>Two-factor sign-in</Title>
        <TwoFactorPanel />
      </Stack>
    </Container>
  );
}

/**
 * The only screen of a user an organization makes enrol first (every other call answers 403
 * TwoFactorEnrolmentRequired): once the recovery codes are saved the console reloads in full.
 */
export function TwoFactorEnrolmentPage() {
  const signOut = useSignOut();
  return (
    <AuthFrame
      title="Set up two-factor sign-in"
      footer={
        <Anchor component="button" type="button" size="sm" ta="center" onClick={() => signOut.mutate(null)}>
          Sign out
        </Anchor>
      }
    >
      <TwoFactorPanel onRecoveryCodesSaved={() => window.location.assign('/')} />
    </AuthFrame>
  );
}

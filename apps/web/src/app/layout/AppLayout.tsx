import { Anchor, AppShell, Center, Group, Image, Loader, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHelpCircle } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { LiveUpdatesBanner } from '../../components/LiveUpdatesBanner';
import { useSignOut } from '../../features/auth/api/logout';
import { SubmitTicketDialog } from '../../features/help/components/SubmitTicketDialog';
import { useCurrentUser } from '../../lib/api/get-current-user';
import { paths } from '../../lib/paths';
import { useRealtime } from '../../lib/realtime-context';
import { ProfileMenu } from './ProfileMenu';

/**
 * The signed-in frame: the top bar (Plinth mark linking home, Help, the profile menu) above the
 * page. Screens with a left navigation render it inside their own content.
 */
export function AppLayout() {
  const me = useCurrentUser();
  const realtime = useRealtime();
  const signOut = useSignOut();
  const [ticketOpened, ticket] = useDisclosure(false);

  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <UnstyledButton component={Link} to={paths.home()} aria-label="Plinth home">
            <Group gap="xs" wrap="nowrap">
              <Image src="/favicon.svg" alt="" w={28} h={28} />
              <Text fw={700} fz="lg">
                Plinth
              </Text>
            </Group>
          </UnstyledButton>
          <Group gap="md" wrap="nowrap">
            <Anchor component={Link} to={paths.help()} c="dimmed" fw={500} size="sm">
              <Group gap={4} wrap="nowrap">
                <IconHelpCircle size={18} aria-hidden />
                Help
              </Group>
            </Anchor>
            {me.data && <ProfileMenu user={me.data} onSubmitTicket={ticket.open} onLogout={() => signOut.mutate(realtime)} />}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <LiveUpdatesBanner />
        {/* A screen whose code is not loaded yet shows a loader under the header. */}
        <Suspense
          fallback={
            <Center p="xl">
              <Loader aria-label="Loading page" />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <SubmitTicketDialog opened={ticketOpened} onClose={ticket.close} />
    </AppShell>
  );
}

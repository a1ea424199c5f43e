import { Anchor, Center, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The centred card every sign-in and account screen sits in, with the Plinth mark on top. */
export function AuthFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Stack w="100%" maw={420} gap="md">
        <Group justify="center" gap="xs">
          <Image src="/favicon.svg" alt="" w={32} h={32} />
          <Text fw={700} fz="xl">
            Plinth
          </Text>
        </Group>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Stack gap="md">
            <Title order={2} fz="h3">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
        {footer}
      </Stack>
    </Center>
  );
}

/** The 'Back to login' link of the account screens. */
export function BackToLoginLink() {
  return (
    <Anchor component={Link} to="/login" size="sm" ta="center">
      Back to login
    </Anchor>
  );
}

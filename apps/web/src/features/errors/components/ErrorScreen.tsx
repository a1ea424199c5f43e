import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of the forbidden and not-found pages: an icon, a title, an explanation and 'Go home'. */
export function ErrorScreen({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="md" maw={480} ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="gray">
          {icon}
        </ThemeIcon>
        <Title order={1} fz="h2">
          {title}
        </Title>
        {children && <Text c="dimmed">{children}</Text>}
        <Button component={Link} to="/">
          Go home
        </Button>
      </Stack>
    </Center>
  );
}

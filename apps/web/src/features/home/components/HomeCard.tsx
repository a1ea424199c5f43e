import { Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type HomeCardProps = {
  title: string;
  /** Where the card leads; null makes the card plain (the user may not open it). */
  to: string | null;
  /** Why a plain card does not open, shown on it (and as its tooltip). */
  closedHint?: string;
  icon: ReactNode;
  subtitle?: string;
  children?: ReactNode;
};

/** A home result card; the whole card is the link when it leads somewhere. */
export function HomeCard({ title, to, closedHint, icon, subtitle, children }: HomeCardProps) {
  const content = (
    <Stack gap={6}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {icon}
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} truncate title={title}>
            {title}
          </Text>
          {subtitle && (
            <Text size="xs" c="dimmed" truncate title={subtitle}>
              {subtitle}
            </Text>
          )}
        </Stack>
      </Group>
      {children}
      {to === null && closedHint && (
        <Text size="xs" c="dimmed">
          {closedHint}
        </Text>
      )}
    </Stack>
  );
  if (to === null) {
    return (
      <Card withBorder padding="md" radius="md" aria-disabled="true" bg="gray.0" data-clickable="false" title={closedHint}>
        {content}
      </Card>
    );
  }
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      component={Link}
      to={to}
      data-clickable="true"
      style={{ textDecoration: 'none', color: 'inherit' }}
    >
      {content}
    </Card>
  );
}

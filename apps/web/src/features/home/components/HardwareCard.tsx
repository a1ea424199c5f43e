import { memo } from 'react';
import { Badge, Group, Text, ThemeIcon } from '@mantine/core';
import { IconCpu } from '@tabler/icons-react';
import type { Hardware } from '@plinth/shared';
import { paths } from '../../../lib/paths';
import { HomeCard } from './HomeCard';
import { OnlineBadge } from '../../../components/OnlineBadge';

/** A hardware unit on home; it opens only when the server granted a role on its site. */
function HardwareCardView({ hardware }: { hardware: Hardware }) {
  const to = hardware.role ? paths.hardware(hardware.organizationId, hardware.siteId, hardware.id) : null;
  return (
    <HomeCard
      title={hardware.name}
      subtitle={`${hardware.siteName} · ${hardware.organizationName}`}
      to={to}
      icon={
        <ThemeIcon variant="light" color="grape" radius="md">
          <IconCpu size={18} aria-hidden />
        </ThemeIcon>
      }
    >
      <Group gap="xs">
        <OnlineBadge online={hardware.online} size="sm" />
        {hardware.controlDebug && (
          <Badge color="orange" variant="light" size="sm">
            Debug mode
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed" truncate>
        {hardware.exhibitName ? `Connected to ${hardware.exhibitName}` : 'Not connected to an exhibit'}
      </Text>
    </HomeCard>
  );
}

/** Memoized: a list re-renders only the cards whose item changed (issue 17). */
export const HardwareCard = memo(HardwareCardView);

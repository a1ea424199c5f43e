import { memo } from 'react';
import { Badge, Group, Text, ThemeIcon } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import type { Exhibit } from '@plinth/shared';
import { paths } from '../../../lib/paths';
import { onlineSinceText } from '../../../lib/format-date';
import { HomeCard } from './HomeCard';
import { OnlineBadge } from '../../../components/OnlineBadge';

/** An exhibit on home: site and organization, online state, operating mode and how long it has been (off)line. */
function ExhibitCardView({ exhibit, now }: { exhibit: Exhibit; now: Date }) {
  const since = onlineSinceText(exhibit.online, exhibit.lastOnlineChange, now);
  return (
    <HomeCard
      title={exhibit.name}
      subtitle={`${exhibit.siteName} · ${exhibit.organizationName}`}
      to={paths.exhibit(exhibit.organizationId, exhibit.siteId, exhibit.id)}
      icon={
        <ThemeIcon variant="light" color="blue" radius="md">
          <IconDeviceDesktop size={18} aria-hidden />
        </ThemeIcon>
      }
    >
      <Group gap="xs">
        <OnlineBadge online={exhibit.online} size="sm" />
        <Badge color={exhibit.op_mode ? 'blue' : 'gray'} variant="outline" size="sm">
          {`Operating mode: ${exhibit.op_mode ? 'On' : 'Off'}`}
        </Badge>
      </Group>
      {since && (
        <Text size="xs" c="dimmed">
          {since}
        </Text>
      )}
    </HomeCard>
  );
}

/** Memoized: a list re-renders only the cards whose item changed (issue 17). */
export const ExhibitCard = memo(ExhibitCardView);

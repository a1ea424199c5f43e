import { memo } from 'react';
import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Exhibit } from '@plinth/shared';
import { OnlineBadge } from '../../../components/OnlineBadge';
import { onlineSinceText } from '../../../lib/format-date';
import { paths } from '../../../lib/paths';

/** A site's exhibit: name, site, organization, online state, operating mode, last online change; opens the overview. */
function ExhibitCardView({ exhibit }: { exhibit: Exhibit }) {
  return (
    <Card
      withBorder
      padding="md"
      component={Link}
      to={paths.exhibit(exhibit.organizationId, exhibit.siteId, exhibit.id, 'overview')}
      data-testid="exhibit-card"
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} truncate>
            {exhibit.name}
          </Text>
          <OnlineBadge online={exhibit.online} />
        </Group>
        <Text size="sm" c="dimmed" truncate>
          {exhibit.siteName} · {exhibit.organizationName}
        </Text>
        <Group gap="xs">
          <Badge color={exhibit.op_mode ? 'blue' : 'gray'} variant="outline" size="sm">
            Operating mode: {exhibit.op_mode ? 'On' : 'Off'}
          </Badge>
          {exhibit.leaderId === null && exhibit.followers.length > 0 && (
            <Badge variant="light" size="sm">
              Leader
            </Badge>
          )}
          {exhibit.leaderId !== null && (
            <Badge variant="light" color="gray" size="sm">
              Follower
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {onlineSinceText(exhibit.online, exhibit.lastOnlineChange) ?? (exhibit.online ? 'Online' : 'Offline')}
        </Text>
      </Stack>
    </Card>
  );
}

/** Memoized: a list re-renders only the cards whose item changed (issue 17). */
export const ExhibitCard = memo(ExhibitCardView);

import { memo } from 'react';
import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { parseRole, type Hardware } from '@plinth/shared';
import { OnlineBadge } from '../../../components/OnlineBadge';
import { formatDate } from '../../../lib/format-date';
import { paths } from '../../../lib/paths';
import { useHardwareWithStatus } from '../../../lib/hardware-live-status';

/**
 * A site's hardware: name, exhibit link, online, site, organization, last update. Opens the hardware
 * overview, unless the caller has no role on it.
 */
function HardwareCardView({ hardware: read }: { hardware: Hardware }) {
  // The list's record with the board's newest heartbeat (updatedAt).
  const hardware = useHardwareWithStatus(read);
  const navigate = useNavigate();
  const clickable = parseRole(hardware.role) !== null;
  const to = paths.hardware(hardware.organizationId, hardware.siteId, hardware.id, 'overview');
  return (
    <Card
      withBorder
      padding="md"
      data-testid="hardware-card"
      style={clickable ? { cursor: 'pointer' } : undefined}
      onClick={clickable ? () => navigate(to) : undefined}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          {clickable ? (
            <Anchor component={Link} to={to} fw={600} c="inherit" underline="never" onClick={(e) => e.stopPropagation()}>
              {hardware.name}
            </Anchor>
          ) : (
            <Text fw={600}>{hardware.name}</Text>
          )}
          <OnlineBadge online={hardware.online} />
        </Group>
        <Text size="sm">
          {hardware.exhibitId ? (
            <Anchor
              component={Link}
              to={paths.exhibit(hardware.organizationId, hardware.siteId, hardware.exhibitId, 'overview')}
              onClick={(e) => e.stopPropagation()}
            >
              {hardware.exhibitName ?? 'Exhibit'}
            </Anchor>
          ) : (
            <Text span c="dimmed" size="sm">
              Not attached to an exhibit
            </Text>
          )}
        </Text>
        <Text size="sm" c="dimmed" truncate>
          {hardware.siteName} · {hardware.organizationName}
        </Text>
        <Text size="xs" c="dimmed">
          Updated {formatDate(hardware.updatedAt, 'card')}
        </Text>
      </Stack>
    </Card>
  );
}

/** Memoized: a list re-renders only the cards whose item changed (issue 17). */
export const HardwareCard = memo(HardwareCardView);

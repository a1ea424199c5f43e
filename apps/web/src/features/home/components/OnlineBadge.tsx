import { Badge } from '@mantine/core';

/** Online or Offline, as a coloured badge. */
export function OnlineBadge({ online }: { online: boolean }) {
  return (
    <Badge color={online ? 'teal' : 'gray'} variant="light" size="sm">
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}

import { Badge, type BadgeProps } from '@mantine/core';

/** Online or Offline, as a coloured badge (teal or grey). */
export function OnlineBadge({ online, size, label }: { online: boolean; size?: BadgeProps['size']; label?: string }) {
  return (
    <Badge color={online ? 'teal' : 'gray'} variant="light" size={size} aria-label={label}>
      {online ? 'Online' : 'Offline'}
    </Badge>
  );
}

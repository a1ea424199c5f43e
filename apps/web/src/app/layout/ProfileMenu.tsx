import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconHome, IconLifebuoy, IconLogout, IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '@plinth/shared';
import { paths } from '../../lib/paths';

export type ProfileMenuProps = {
  user: CurrentUser;
  onSubmitTicket: () => void;
  onLogout: () => void;
};

/** Only web images are used as a profile picture; anything else falls back to the initials avatar. */
function safeImage(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/** The profile picture (initials when there is none) and its menu: name, email, Home, Two-factor sign-in, Submit a Ticket, Logout. */
export function ProfileMenu({ user, onSubmitTicket, onLogout }: ProfileMenuProps) {
  const fullName = `${user.firstName} ${user.lastName}`.trim() || user.email;
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Open profile menu">
          <Avatar src={safeImage(user.profile_image)} name={fullName} color="initials" radius="xl" alt={fullName} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {fullName}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={paths.home()} leftSection={<IconHome size={16} aria-hidden />}>
          Home
        </Menu.Item>
        <Menu.Item component={Link} to={paths.twoFactor()} leftSection={<IconShieldLock size={16} aria-hidden />}>
          Two-factor sign-in
        </Menu.Item>
        <Menu.Item onClick={onSubmitTicket} leftSection={<IconLifebuoy size={16} aria-hidden />}>
          Submit a Ticket
        </Menu.Item>
        <Menu.Item onClick={onLogout} leftSection={<IconLogout size={16} aria-hidden />}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

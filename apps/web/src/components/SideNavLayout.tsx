import { Button, Drawer, Flex, Paper, Stack } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconMenu2 } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { BREAKPOINT_NARROW_PX } from '@plinth/shared';

export type SideNavLayoutProps = {
  /** The navigation (a LeftNav): beside the content on wide screens, in a drawer on narrow ones. */
  nav: ReactNode;
  /** Name of the button that opens the drawer, and the drawer's title. */
  navLabel: string;
  /** Width of the navigation column on wide screens, in px. */
  navWidth: number;
  children: ReactNode;
};

/**
 * On wide screens the navigation stays in view while the page scrolls and scrolls on its own: a
 * site's thousands of boards neither stretch the page nor scroll the open board's page away when
 * the menu brings the open board into view.
 */
const STICKY_NAV = {
  flexShrink: 0,
  position: 'sticky',
  top: 'calc(var(--app-shell-header-height, 0px) + var(--mantine-spacing-md))',
  maxHeight: 'calc(100dvh - var(--app-shell-header-height, 0px) - 2 * var(--mantine-spacing-md))',
  display: 'flex',
  flexDirection: 'column',
} as const;

/**
 * The site, exhibit and hardware screens: navigation on the left, the page beside it. On a narrow
 * screen a long list above the page would push the page below the fold, so the page comes first
 * and the navigation opens in a drawer from a button (closing again once an entry is chosen).
 */
export function SideNavLayout({ nav, navLabel, navWidth, children }: SideNavLayoutProps) {
  const narrow = useMediaQuery(`(max-width: ${BREAKPOINT_NARROW_PX}px)`) ?? false;
  const [opened, drawer] = useDisclosure(false);
  const closeDrawer = drawer.close;
  const { pathname } = useLocation();
  useEffect(() => closeDrawer(), [pathname, closeDrawer]);

  if (!narrow) {
    return (
      <Flex gap="md" direction="row" align="flex-start">
        <Paper withBorder p="sm" w={navWidth} style={STICKY_NAV}>
          {nav}
        </Paper>
        <Stack gap="md" style={{ flex: 1, minWidth: 0 }} w="100%">
          {children}
        </Stack>
      </Flex>
    );
  }
  return (
    <Stack gap="md">
      <Button variant="default" size="xs" leftSection={<IconMenu2 size={16} />} onClick={drawer.open} style={{ alignSelf: 'flex-start' }}>
        {navLabel}
      </Button>
      {children}
      <Drawer opened={opened} onClose={drawer.close} title={navLabel} size={300}>
        {nav}
      </Drawer>
    </Stack>
  );
}

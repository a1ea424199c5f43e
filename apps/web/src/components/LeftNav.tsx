import { ActionIcon, Badge, Group, NavLink, ScrollArea, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconBug, IconHome, IconPlugConnected, IconPlugConnectedX, IconWifi, IconWifiOff } from '@tabler/icons-react';
import { memo, useCallback, useEffectEvent, useLayoutEffect, useRef, type RefObject } from 'react';
import { Link } from 'react-router';
import { useVisibleRows } from './useVisibleRows';

/** One entry of the left navigation; `online` and `connected` add their icons when given. */
export type LeftNavItem = {
  id: string;
  label: string;
  /** Where choosing the entry goes. */
  to: string;
  online?: boolean;
  connected?: boolean;
  /** Hardware in debug mode gets a bug icon. */
  debug?: boolean;
};

/** A leader exhibit with its followers, shown together. */
export type LeftNavGroup = { leader: LeftNavItem; followers: LeftNavItem[] };

export type LeftNavProps = {
  title: string;
  onBack: () => void;
  /** Label of the back button for screen readers. */
  backLabel?: string;
  groups?: LeftNavGroup[];
  items?: LeftNavItem[];
  activeId?: string;
};

function StateIcons({ item }: { item: LeftNavItem }) {
  return (
    <Group gap={4} wrap="nowrap">
      {item.debug && <IconBug size={16} aria-label="Debug mode on" color="var(--mantine-color-orange-6)" />}
      {item.connected !== undefined &&
        (item.connected ? (
          <IconPlugConnected size={16} aria-label="Connected" color="var(--mantine-color-teal-6)" />
        ) : (
          <IconPlugConnectedX size={16} aria-label="Not connected" color="var(--mantine-color-gray-5)" />
        ))}
      {item.online !== undefined &&
        (item.online ? (
          <IconWifi size={16} aria-label="Online" color="var(--mantine-color-teal-6)" />
        ) : (
          <IconWifiOff size={16} aria-label="Offline" color="var(--mantine-color-gray-5)" />
        ))}
    </Group>
  );
}

type NavEntryProps = { item: LeftNavItem; activeId?: string; tag?: string; indent?: boolean };

function NavEntryView({ item, activeId, tag, indent }: NavEntryProps) {
  const active = item.id === activeId;
  return (
    <NavLink
      component={Link}
      to={item.to}
      active={active}
      aria-current={active ? 'page' : undefined}
      pl={indent ? 'xl' : undefined}
      label={
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="sm" truncate>
            {item.label}
          </Text>
          {tag && (
            <Badge size="xs" variant="light" color={tag === 'Leader' ? 'blue' : 'gray'}>
              {tag}
            </Badge>
          )}
        </Group>
      }
      rightSection={<StateIcons item={item} />}
    />
  );
}

/** Up to this many entries are all drawn; a longer list (a site's 10,000 boards) draws the ones near the scrolled view (issue 17). */
export const LEFT_NAV_WINDOW_FROM = 200;
/** The menu's list scrolls on its own within the height its column gives it (SideNavLayout). */
const SCROLL_STYLES = { root: { display: 'flex', flexDirection: 'column' }, viewport: { flex: 1, minHeight: 0 } } as const;

/** An entry's height (px) until one is measured. */
const ESTIMATED_ENTRY_PX = 36;

const sameItem = (a: LeftNavItem, b: LeftNavItem) =>
  a.id === b.id && a.label === b.label && a.to === b.to && a.online === b.online && a.connected === b.connected && a.debug === b.debug;

/**
 * An entry re-renders only when what it shows changed: screens rebuild their item objects at
 * every render, and a site's hardware screen lists thousands (issue 17).
 */
const NavEntry = memo(
  NavEntryView,
  (a, b) => sameItem(a.item, b.item) && (a.activeId === a.item.id) === (b.activeId === b.item.id) && a.tag === b.tag && a.indent === b.indent,
);

/**
 * The left navigation of the site, exhibit and hardware screens: back and home buttons, a title,
 * leader/follower groups and the other entries, the active one highlighted. Entries are links,
 * so they are reachable and activated with the keyboard.
 */
function LeftNavView({ title, onBack, backLabel = 'Back', groups = [], items = [], activeId }: LeftNavProps) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const entriesRef = useRef<HTMLDivElement>(null);
  const isWindowed = items.length > LEFT_NAV_WINDOW_FROM;
  const measureRowPx = useCallback(() => (entriesRef.current?.firstElementChild as HTMLElement | null)?.offsetHeight ?? 0, []);
  const { containerRef, range, rowPx } = useVisibleRows({
    rowCount: items.length,
    enabled: isWindowed,
    estimatedRowPx: ESTIMATED_ENTRY_PX,
    measureRowPx,
    viewportRef,
  });
  const first = isWindowed ? range.first : 0;
  const last = isWindowed ? range.last : items.length - 1;
  const activeIndex = activeId === undefined ? -1 : items.findIndex((item) => item.id === activeId);
  useScrollToActive({ viewportRef, containerRef, activeIndex, activeId, rowPx });
  return (
    <Stack gap="xs" component="nav" aria-label={title} h="100%" style={{ flex: 1, minHeight: 0 }}>
      <Group gap="xs">
        <Tooltip label={backLabel}>
          <ActionIcon variant="subtle" onClick={onBack} aria-label={backLabel}>
            <IconArrowLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Home">
          <ActionIcon variant="subtle" component={Link} to="/" aria-label="Home">
            <IconHome size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Title order={4} px="xs">
        {title}
      </Title>
      <ScrollArea style={{ flex: 1, minHeight: 0 }} styles={SCROLL_STYLES} viewportRef={viewportRef}>
        <Stack gap={0}>
          {groups.map((group) => (
            <div key={group.leader.id} role="group" aria-label={`${group.leader.label} group`}>
              <NavEntry item={group.leader} activeId={activeId} tag="Leader" />
              {group.followers.map((follower) => (
                <NavEntry key={follower.id} item={follower} activeId={activeId} tag="Follower" indent />
              ))}
            </div>
          ))}
          <div ref={containerRef}>
            {isWindowed && <div style={{ height: first * rowPx }} aria-hidden />}
            <div ref={entriesRef}>
              {items.slice(first, last + 1).map((item) => (
                <NavEntry key={item.id} item={item} activeId={activeId} />
              ))}
            </div>
            {isWindowed && <div style={{ height: Math.max(0, items.length - 1 - last) * rowPx }} aria-hidden />}
          </div>
        </Stack>
      </ScrollArea>
    </Stack>
  );
}

/**
 * Brings the active entry into the menu's view when the page opens or the active entry changes
 * (a board far down a 10,000-board list, opened from search, is not drawn until its row is on
 * screen). It moves only when the entry is out of view, and never follows later scrolls.
 */
function useScrollToActive(input: {
  viewportRef: RefObject<HTMLDivElement | null>;
  containerRef: RefObject<HTMLDivElement | null>;
  activeIndex: number;
  activeId?: string;
  rowPx: number;
}): void {
  const { viewportRef, containerRef, activeIndex, activeId, rowPx } = input;
  const found = activeIndex >= 0;
  const bringIntoView = useEffectEvent(() => {
    const viewport = viewportRef.current;
    const container = containerRef.current;
    if (!viewport || !container) return;
    const containerTop = container.getBoundingClientRect().top - viewport.getBoundingClientRect().top + viewport.scrollTop;
    const entryTop = containerTop + activeIndex * rowPx;
    if (entryTop >= viewport.scrollTop && entryTop + rowPx <= viewport.scrollTop + viewport.clientHeight) return;
    viewport.scrollTop = Math.max(0, entryTop - (viewport.clientHeight - rowPx) / 2);
  });
  // Only when the entry (or whether it is listed) changes: its index moving with live updates must not pull the menu back.
  useLayoutEffect(() => {
    if (found) bringIntoView();
  }, [activeId, found]);
}

/** Memoized: a screen re-rendering at every live value does not redraw a navigation that did not change. */
export const LeftNav = memo(LeftNavView);

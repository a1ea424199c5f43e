import { Box, Group, Paper, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

export type ExpandableRowProps = {
  /** The toggle button's accessible name (an email): short and stable, unlike the header's content. */
  label: string;
  /** What the toggle shows (the email, a name, badges). */
  header: ReactNode;
  /** Controls beside the toggle (a role select, remove), outside the button. */
  actions?: ReactNode;
  defaultOpened?: boolean;
  /** The body; mounted only while open (no animation, so it is there as soon as it is asked for), and a body that reads data reads it then. */
  children: ReactNode;
};

/** A bordered list row that opens to show more (a user's permissions or toggles). */
export function ExpandableRow({ label, header, actions, defaultOpened = false, children }: ExpandableRowProps) {
  const [opened, setOpened] = useState(defaultOpened);
  const Chevron = opened ? IconChevronDown : IconChevronRight;
  return (
    <Paper withBorder p="sm" role="listitem">
      <Group justify="space-between" wrap="nowrap">
        <UnstyledButton aria-label={label} aria-expanded={opened} onClick={() => setOpened((o) => !o)} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Chevron size={16} aria-hidden style={{ flexShrink: 0 }} />
            {header}
          </Group>
        </UnstyledButton>
        {actions}
      </Group>
      {opened && <Box pt="sm">{children}</Box>}
    </Paper>
  );
}

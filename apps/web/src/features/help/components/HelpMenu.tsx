import { NavLink, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { HELP_CATEGORIES, HELP_TOPICS } from '../help-topics';

/** The help topics grouped by category; the current one is marked active. */
export function HelpMenu({ activeId, onNavigate }: { activeId: string; onNavigate?: () => void }) {
  return (
    <Stack gap="md" component="nav" aria-label="Help topics">
      {HELP_CATEGORIES.map((category) => (
        <Stack key={category} gap={2}>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm">
            {category}
          </Text>
          {HELP_TOPICS.filter((t) => t.category === category).map((topic) => (
            <NavLink
              key={topic.id}
              component={Link}
              to={paths.help(topic.id)}
              label={topic.title}
              active={topic.id === activeId}
              aria-current={topic.id === activeId ? 'page' : undefined}
              onClick={onNavigate}
            />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

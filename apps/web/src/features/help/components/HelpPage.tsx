import { Box, Burger, Drawer, Group, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconArrowRight } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import { BREAKPOINT_NARROW_PX, MQTT_DEFAULT_PORT } from '@plinth/shared';
import { usePublicConfig } from '../../../lib/api/get-public-config';
import { paths } from '../../../lib/paths';
import { HELP_TOPICS, helpTopicIndex, type HelpTopic } from '../help-topics';
import { HelpMenu } from './HelpMenu';

function StepLink({ topic, direction }: { topic: HelpTopic; direction: 'previous' | 'next' }) {
  const isNext = direction === 'next';
  return (
    <UnstyledButton component={Link} to={paths.help(topic.id)} aria-label={`${isNext ? 'Next' : 'Previous'}: ${topic.title}`}>
      <Paper withBorder p="sm" radius="md">
        <Group gap="xs" wrap="nowrap" justify={isNext ? 'flex-end' : 'flex-start'}>
          {!isNext && <IconArrowLeft size={16} aria-hidden />}
          <Stack gap={0} ta={isNext ? 'right' : 'left'}>
            <Text size="xs" c="dimmed">
              {isNext ? 'Next' : 'Previous'}
            </Text>
            <Text size="sm" fw={600}>
              {topic.title}
            </Text>
          </Stack>
          {isNext && <IconArrowRight size={16} aria-hidden />}
        </Group>
      </Paper>
    </UnstyledButton>
  );
}

/** /help/:helpId: the help topics with a category menu (a drawer on narrow screens) and previous/next links; an unknown id goes to /notfound. */
export function HelpPage() {
  const { helpId } = useParams();
  const index = helpTopicIndex(helpId);
  // A mistyped or retired topic is not found, as any other address (not silently the first topic).
  if (index === -1) return <Navigate to={paths.notFound()} replace />;
  return <HelpTopicPage index={index} />;
}

/** One help topic with the menu and its previous and next links. */
function HelpTopicPage({ index }: { index: number }) {
  const topic = HELP_TOPICS[index]!;
  const previous = index > 0 ? HELP_TOPICS[index - 1] : undefined;
  const next = index < HELP_TOPICS.length - 1 ? HELP_TOPICS[index + 1] : undefined;
  const config = usePublicConfig();
  const isNarrow = useMediaQuery(`(max-width: ${BREAKPOINT_NARROW_PX}px)`) ?? false;
  const [menuOpened, menu] = useDisclosure(false);
  const { Content } = topic;

  return (
    <Group align="flex-start" gap="xl" wrap="nowrap" maw={1200} mx="auto">
      {isNarrow ? (
        <Drawer opened={menuOpened} onClose={menu.close} title="Help topics" size={280}>
          <HelpMenu activeId={topic.id} onNavigate={menu.close} />
        </Drawer>
      ) : (
        <Box w={240} style={{ flexShrink: 0, position: 'sticky', top: 76 }}>
          <HelpMenu activeId={topic.id} />
        </Box>
      )}
      <Stack gap="lg" style={{ flex: 1, minWidth: 0 }} component="article">
        <Group gap="sm" wrap="nowrap">
          {isNarrow && <Burger opened={menuOpened} onClick={menu.toggle} aria-label="Open help topics" size="sm" />}
          <Stack gap={0}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {topic.category}
            </Text>
            <Title order={1} fz="h2">
              {topic.title}
            </Title>
          </Stack>
        </Group>
        <Content
          mqttPort={config.data?.mqttPort ?? MQTT_DEFAULT_PORT}
          supportEmail={config.data?.supportEmail ?? null}
        />
        <Group justify="space-between" align="stretch" mt="md" component="nav" aria-label="Previous and next topic">
          {previous ? <StepLink topic={previous} direction="previous" /> : <span />}
          {next ? <StepLink topic={next} direction="next" /> : <span />}
        </Group>
      </Stack>
    </Group>
  );
}

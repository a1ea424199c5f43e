import { Box, ColorSwatch, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import type { Exhibit } from '@plinth/shared';
import { useExhibitManifest } from '../api/get-exhibit-manifest';
import { formatSettingValue, formatStatusValue, truncateText } from '../lib/format';
import { allVisibleSettings, isHiddenId } from '../lib/settings-tree';
import { ManifestPlaceholder } from './ManifestPlaceholder';
import { orDash } from '../../../lib/no-value';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={4} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** A value cut at 45 characters, the whole text in its tooltip; always rendered as text. */
function Value({ text }: { text: string }) {
  return (
    <Text size="sm" title={text.length > 45 ? text : undefined} style={{ overflowWrap: 'anywhere' }}>
      {truncateText(text)}
    </Text>
  );
}

function Rows({ rows, empty }: { rows: { key: string; label: string; value: ReactNode }[]; empty: string }) {
  if (!rows.length)
    return (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    );
  return (
    <Table>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Th w="40%" fw={500}>
              <Value text={row.label} />
            </Table.Th>
            <Table.Td>{row.value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The overview tab (spec 2.2): Status, Settings and Hardware sections; values follow live events. */
export function ExhibitOverviewTab({ exhibit }: { exhibit: Exhibit }) {
  const manifest = useExhibitManifest(exhibit.id);
  useEffect(() => {
    if (manifest.isError) console.error('Could not get overview information for this exhibit', manifest.error);
  }, [manifest.isError, manifest.error]);

  if (!manifest.data) return <ManifestPlaceholder manifest={manifest} what="overview" />;
  const data = manifest.data.manifest;
  const statuses = data.statuses.filter((s) => !isHiddenId(s.manifestId)).sort((a, b) => a.order - b.order);
  const settings = allVisibleSettings(data);

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section title="Status">
          <Rows
            empty="This exhibit has no statuses."
            rows={statuses.map((s) => {
              const text = formatStatusValue(s);
              return {
                key: s.id,
                label: s.display,
                value:
                  s.type === 'Color' && typeof s.value === 'string' && s.value ? (
                    <Group gap="xs" wrap="nowrap">
                      <ColorSwatch color={s.value} size={16} aria-hidden />
                      <Value text={text} />
                    </Group>
                  ) : (
                    <Value text={text} />
                  ),
              };
            })}
          />
        </Section>
        <Section title="Settings">
          <Rows
            empty="This exhibit has no settings."
            rows={settings.map((s) => ({
              key: s.id,
              label: s.display,
              value: <Value text={formatSettingValue(s)} />,
            }))}
          />
        </Section>
      </SimpleGrid>
      <Section title="Hardware">
        <Box>
          <Text size="sm" fw={500}>
            MQTT IP Address
          </Text>
          <Value text={orDash(exhibit.mqttPath)} />
        </Box>
      </Section>
    </Stack>
  );
}

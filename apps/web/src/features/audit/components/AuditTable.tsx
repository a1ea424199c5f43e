import { Badge, Code, Stack, Table, Text } from '@mantine/core';
import type { AuditEntry } from '@plinth/shared';
import { formatDate } from '../../../lib/format-date';
import { NO_VALUE, orDash } from '../../../lib/no-value';
import { ACTION_LABELS, stateText } from '../lib/audit-filter-params';

export type AuditTableProps = {
  entries: AuditEntry[];
  /** Names of the organization's sites and exhibits by id (an entry of a deleted one shows its id). */
  names: ReadonlyMap<string, string>;
};

function Place({ entry, names }: { entry: AuditEntry; names: ReadonlyMap<string, string> }) {
  const parts = [
    entry.siteId && `Site: ${names.get(entry.siteId) ?? entry.siteId}`,
    entry.exhibitId && `Exhibit: ${names.get(entry.exhibitId) ?? entry.exhibitId}`,
    entry.hardwareId && `Board: ${names.get(entry.hardwareId) ?? entry.hardwareId}`,
  ].filter(Boolean);
  return <Text size="sm">{parts.length ? parts.join(' · ') : 'Organization'}</Text>;
}

function Change({ entry }: { entry: AuditEntry }) {
  const before = stateText(entry.before);
  const after = stateText(entry.after);
  return (
    <Stack gap={2}>
      <Code block={false} aria-label="Before">
        {before ?? NO_VALUE}
      </Code>
      <Text size="xs" c="dimmed" aria-hidden>
        →
      </Text>
      <Code block={false} aria-label="After">
        {after ?? NO_VALUE}
      </Code>
    </Stack>
  );
}

/** One page of audit entries: when, who (and from where), where, what and the change, before → after. All text is shown as text. */
export function AuditTable({ entries, names }: AuditTableProps) {
  return (
    <Table striped highlightOnHover verticalSpacing="xs" aria-label="Audit log entries">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>Where</Table.Th>
          <Table.Th>What</Table.Th>
          <Table.Th>Change</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry) => (
          <Table.Tr key={entry.id} data-testid="audit-entry">
            <Table.Td>
              <Text size="sm">{formatDate(entry.at, 'detail')}</Text>
              <Text size="xs" c="dimmed">
                #{entry.sequence}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{entry.actor.label}</Text>
              <Text size="xs" c="dimmed">
                {entry.actor.kind === 'apiKey' ? 'API key' : 'Person'} · {orDash(entry.address)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Place entry={entry} names={names} />
            </Table.Td>
            <Table.Td>
              <Badge variant="light">{ACTION_LABELS[entry.action]}</Badge>
              <Text size="sm">{entry.resource}</Text>
              <Text size="xs" c="dimmed">
                {entry.resourceId}
              </Text>
            </Table.Td>
            <Table.Td maw={420} style={{ wordBreak: 'break-all' }}>
              <Change entry={entry} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

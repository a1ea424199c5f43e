import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { BLINK_MS, type LogLevel } from '@plinth/shared';
import { formatDate } from '../../lib/format-date';
import { LogMessage } from './LogMessage';

/** One row of the logs view: a stored entry, or a line that came live at `arrivedAt` (epoch ms). */
export type LogRowData = { key: string; level: LogLevel; message: string; eventType: string; createdAt: string; arrivedAt?: number };

const LEVEL_COLOURS: Record<LogLevel, string> = { debug: 'gray', info: 'blue', warn: 'yellow', error: 'red' };
/** The background of a row that just came in live. */
const HIGHLIGHT = 'var(--mantine-color-yellow-light)';

/** True for BLINK_MS (1 second) after a live row arrived. */
function useHighlight(arrivedAt: number | undefined): boolean {
  const left = arrivedAt === undefined ? 0 : arrivedAt + BLINK_MS - Date.now();
  const [on, setOn] = useState(left > 0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setOn(false), left);
    return () => clearTimeout(timer);
    // Timed once, from when the row appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [arrivedAt]);
  return on;
}

function EventType({ row }: { row: LogRowData }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{row.eventType}</Text>
      {row.level !== row.eventType && (
        <Badge size="xs" variant="light" color={LEVEL_COLOURS[row.level]}>
          {row.level}
        </Badge>
      )}
    </Group>
  );
}

function TableRow({ row }: { row: LogRowData }) {
  const highlighted = useHighlight(row.arrivedAt);
  return (
    <Table.Tr
      data-testid="log-row"
      data-level={row.level}
      data-highlighted={highlighted ? 'true' : undefined}
      style={{ backgroundColor: highlighted ? HIGHLIGHT : undefined, transition: 'background-color 300ms' }}
    >
      <Table.Td style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>{formatDate(row.createdAt, 'log')}</Table.Td>
      <Table.Td style={{ verticalAlign: 'top' }}>
        <LogMessage message={row.message} />
      </Table.Td>
      <Table.Td style={{ verticalAlign: 'top' }}>
        <EventType row={row} />
      </Table.Td>
    </Table.Tr>
  );
}

function Card({ row }: { row: LogRowData }) {
  const highlighted = useHighlight(row.arrivedAt);
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      data-testid="log-row"
      data-level={row.level}
      data-highlighted={highlighted ? 'true' : undefined}
      style={{ backgroundColor: highlighted ? HIGHLIGHT : undefined, transition: 'background-color 300ms' }}
    >
      <Stack gap={4}>
        <Text size="xs" c="dimmed">
          DATETIME
        </Text>
        <Text size="sm">{formatDate(row.createdAt, 'log')}</Text>
        <Text size="xs" c="dimmed">
          LOG
        </Text>
        <LogMessage message={row.message} />
        <Text size="xs" c="dimmed">
          EVENT TYPE
        </Text>
        <EventType row={row} />
      </Stack>
    </Paper>
  );
}

/** The log rows: a table DATETIME / LOG / EVENT TYPE, or one card each when `narrow` (800 px or less). */
export function LogTable({ rows, narrow }: { rows: LogRowData[]; narrow: boolean }) {
  if (narrow) {
    return (
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Logs" data-testid="log-cards">
        {rows.map((row) => (
          <Card key={row.key} row={row} />
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table aria-label="Logs" data-testid="log-table" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={220}>DATETIME</Table.Th>
            <Table.Th>LOG</Table.Th>
            <Table.Th w={160}>EVENT TYPE</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <TableRow key={row.key} row={row} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

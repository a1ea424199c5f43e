import { Badge, Group, List, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ScheduledEvent } from '@plinth/shared';
import { formatScheduleDate, frequencyText, SCHEDULE_STATE_STYLES } from '../../lib/schedule-calendar';
import { NO_VALUE, orDash } from '../../../../lib/no-value';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" fw={500} w={150} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} component="div">
        {children}
      </Text>
    </Group>
  );
}

/** The changes of a stored event, by the names the server gave them. */
function changeLines(event: ScheduledEvent): string[] {
  return [
    ...event.schedulecontrols.map((c) => `Control ${c.control}${c.controlGroupItemId ? ` (item ${c.controlGroupItemId})` : ''}`),
    ...event.schedulesettings.map((s) => `Setting ${s.setting}${s.listName ? ` (list item ${s.listName})` : ''}: ${orDash(s.value)}`),
    ...event.schedulestrapicontents.map((s) => `Content ${s.strapicontent}: ${s.value === null ? 'none' : String(s.value)}`),
    ...(event.opMode ? [`Operating mode ${event.opMode}`] : []),
  ];
}

/** A view-only event (spec 2.9): for users without canModify, and for occurrences that already ran. */
export function ScheduleEventSummary({ event, zone }: { event: ScheduledEvent; zone: string }) {
  const style = SCHEDULE_STATE_STYLES[event.state];
  const changes = changeLines(event);
  return (
    <Stack gap="xs" data-testid="schedule-summary">
      <Field label="Event name">{event.name}</Field>
      <Field label="State">
        <Badge variant="outline" color={event.state === 'completed' ? 'gray' : event.state === 'missed' || event.state === 'failed' ? 'red' : 'orange'}>
          {style.label}
        </Badge>
      </Field>
      <Field label="Start">{formatScheduleDate(event.startDate, zone)}</Field>
      <Field label="End">{event.endDate ? formatScheduleDate(event.endDate, zone) : 'Never'}</Field>
      <Field label="Frequency">{frequencyText(event.recurring ? (event.frequency ?? event.selectedFrequency) : null)}</Field>
      {event.recurring && <Field label="Recurring end date">{formatScheduleDate(event.recurringEndDate, zone)}</Field>}
      <Field label="Changes">
        {changes.length ? (
          <List size="sm">
            {changes.map((line, i) => (
              <List.Item key={i}>{line}</List.Item>
            ))}
          </List>
        ) : (
          NO_VALUE
        )}
      </Field>
      {event.ranAt && <Field label="Ran at">{formatScheduleDate(event.ranAt, zone)}</Field>}
      {event.outcome.length > 0 && (
        <Field label="Outcome">
          <List size="sm">
            {event.outcome.map((line, i) => (
              <List.Item key={i}>{line}</List.Item>
            ))}
          </List>
        </Field>
      )}
      {event.createdBy && <Field label="Created by">{event.createdBy}</Field>}
      <Text size="xs" c="dimmed">
        Times in {zone}. Schedules run within 5 minutes of the specified time.
      </Text>
    </Stack>
  );
}

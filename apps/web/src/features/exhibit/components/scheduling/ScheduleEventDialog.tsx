import { Button, Group, Modal, Stack } from '@mantine/core';
import type { Exhibit, ScheduledEvent } from '@plinth/shared';
import { isScheduleEditable } from '../../lib/schedule-calendar';
import { newScheduleValues, scheduleValuesOf } from '../../lib/schedule-form';
import { ScheduleEventForm } from './ScheduleEventForm';
import { ScheduleEventSummary } from './ScheduleEventSummary';

/** What the dialog shows: a new event (optionally from a chosen slot) or a stored occurrence. */
export type ScheduleDialogTarget = { kind: 'create'; startMs?: number } | { kind: 'event'; event: ScheduledEvent };

export type ScheduleEventDialogProps = {
  target: ScheduleDialogTarget | null;
  exhibit: Exhibit;
  zone: string;
  canModify: boolean;
  /** Narrow screens: the dialog takes the whole screen. */
  isCompact: boolean;
  onClose: () => void;
  now?: () => number;
};

/**
 * The event dialog of the Scheduling tab: the form for Create and for an occurrence a canModify
 * user may still change, else the view-only summary.
 */
export function ScheduleEventDialog({ target, exhibit, zone, canModify, isCompact, onClose, now = Date.now }: ScheduleEventDialogProps) {
  const event = target?.kind === 'event' ? target.event : undefined;
  const isEditable = target?.kind === 'create' ? canModify : event ? isScheduleEditable(event, canModify) : false;
  const title = target?.kind === 'create' ? 'Create Event' : isEditable ? 'Edit Event' : 'Event';

  const body = (() => {
    if (!target) return null;
    if (target.kind === 'event' && !isEditable) {
      return (
        <Stack gap="md">
          <ScheduleEventSummary event={target.event} zone={zone} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      );
    }
    const initialValues = target.kind === 'create' ? newScheduleValues(zone, now(), target.startMs) : scheduleValuesOf(target.event, zone);
    const key = target.kind === 'create' ? `create-${target.startMs ?? ''}` : target.event.id;
    return <ScheduleEventForm key={key} exhibit={exhibit} zone={zone} event={event} initialValues={initialValues} onClose={onClose} now={now} />;
  })();

  return (
    <Modal opened={target !== null} onClose={onClose} title={title} size="lg" fullScreen={isCompact} closeOnClickOutside={false}>
      {body}
    </Modal>
  );
}

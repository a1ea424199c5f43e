import type { EventInput } from '@fullcalendar/core';
import { DateTime } from 'luxon';
import { DAY_NAMES, type Frequency, type ScheduledEvent, type ScheduleState } from '@plinth/shared';
import { formatDate, NO_DATE } from '../../../lib/format-date';

/** How an occurrence in each state is drawn: completed grey, waiting or running orange, failed red, missed outlined red. */
export const SCHEDULE_STATE_STYLES: Record<ScheduleState, { background: string; border: string; text: string; label: string }> = {
  scheduled: { background: '#fd7e14', border: '#fd7e14', text: '#ffffff', label: 'Scheduled' },
  running: { background: '#fd7e14', border: '#e8590c', text: '#ffffff', label: 'Running' },
  completed: { background: '#868e96', border: '#868e96', text: '#ffffff', label: 'Completed' },
  missed: { background: '#fff5f5', border: '#e03131', text: '#c92a2a', label: 'Missed' },
  failed: { background: '#e03131', border: '#c92a2a', text: '#ffffff', label: 'Failed' },
};

/** The calendar title of an occurrence: its name, with the state when it is one to notice. */
export function scheduleTitle(event: ScheduledEvent): string {
  if (event.state === 'missed' || event.state === 'failed' || event.state === 'running') return `${event.name} (${SCHEDULE_STATE_STYLES[event.state].label})`;
  return event.name;
}

/** Only an occurrence that has not run may be changed, and only by a user with canModify. */
export function isScheduleEditable(event: ScheduledEvent, canModify: boolean): boolean {
  return canModify && event.state === 'scheduled';
}

/** An occurrence as FullCalendar draws it; the occurrence itself rides along as `extendedProps.schedule`. */
export function toCalendarEvent(event: ScheduledEvent, canModify: boolean): EventInput {
  const style = SCHEDULE_STATE_STYLES[event.state];
  return {
    id: event.id,
    title: scheduleTitle(event),
    start: event.startDate,
    end: event.endDate ?? undefined,
    backgroundColor: style.background,
    borderColor: style.border,
    textColor: style.text,
    classNames: [`schedule-${event.state}`],
    editable: isScheduleEditable(event, canModify),
    extendedProps: { schedule: event },
  };
}

/** A frequency as a person reads it: 'Daily', 'Weekly on Monday', 'Custom: Monday, Friday'. */
export function frequencyText(frequency: Frequency | null): string {
  if (!frequency) return 'Does not repeat';
  const days = DAY_NAMES.filter((_, i) => frequency.altValue[i] === '1');
  if (frequency.value === 'Daily') return 'Daily';
  if (frequency.value === 'Weekly') return `Weekly on ${days.join(', ')}`;
  return `Custom: ${days.join(', ')}`;
}

/** An instant as the site's wall clock shows it, in the console's one date style (spec 9: MM-DD-YYYY plus the time). */
export function formatScheduleDate(iso: string | null, zone: string): string {
  if (!iso) return NO_DATE;
  const dt = DateTime.fromISO(iso, { zone });
  // The wall time without a zone, which formatDate reads as it is.
  return dt.isValid ? formatDate(dt.toFormat("yyyy-MM-dd'T'HH:mm:ss"), 'value') : iso;
}

import type { DateSelectArg, DatesSetArg, EventClickArg, EventDropArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type EventResizeDoneArg } from '@fullcalendar/interaction';
import luxonPlugin from '@fullcalendar/luxon3';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useMemo } from 'react';
import type { ScheduledEvent } from '@plinth/shared';
import type { ScheduleRangeKey } from '../../../../lib/query-keys';
import { SCHEDULE_STATE_STYLES, toCalendarEvent } from '../../lib/schedule-calendar';

/** An occurrence dragged or resized to new instants; `revert` puts it back on screen. */
export type ScheduleMove = { schedule: ScheduledEvent; start: Date; end: Date | null; revert: () => void };

export type ScheduleCalendarProps = {
  schedules: ScheduledEvent[];
  /** The site's IANA zone: the calendar's days and hours are its wall clock. */
  zone: string;
  canModify: boolean;
  /** Narrow screens: a day view and a smaller toolbar. */
  isCompact: boolean;
  onRangeChange: (range: ScheduleRangeKey) => void;
  onEventClick: (schedule: ScheduledEvent) => void;
  /** A canModify user chose an empty slot (epoch ms of its start). */
  onSlotSelect: (startMs: number) => void;
  onEventMove: (move: ScheduleMove) => void;
};

const PLUGINS = [dayGridPlugin, timeGridPlugin, interactionPlugin, luxonPlugin];

function scheduleOf(extendedProps: Record<string, unknown>): ScheduledEvent {
  return extendedProps.schedule as ScheduledEvent;
}

const EVENT_TIME_FORMAT = { hour: 'numeric', minute: '2-digit', meridiem: 'short' } as const;

/**
 * The Scheduling tab's FullCalendar: week (default) and month views, prev/next/today, times in the
 * site's zone (through the luxon plugin), occurrences coloured by state. canModify users select an
 * empty slot to create and drag occurrences that have not run to move them.
 */
export function ScheduleCalendar({ schedules, zone, canModify, isCompact, onRangeChange, onEventClick, onSlotSelect, onEventMove }: ScheduleCalendarProps) {
  const events = useMemo<EventInput[]>(() => schedules.map((s) => toCalendarEvent(s, canModify)), [schedules, canModify]);

  const handleMove = (info: EventDropArg | EventResizeDoneArg) => {
    const start = info.event.start;
    if (!start) {
      info.revert();
      return;
    }
    onEventMove({ schedule: scheduleOf(info.event.extendedProps), start, end: info.event.end, revert: info.revert });
  };

  return (
    <FullCalendar
      // A new layout starts in its own default view.
      key={isCompact ? 'compact' : 'wide'}
      plugins={PLUGINS}
      timeZone={zone}
      initialView={isCompact ? 'timeGridDay' : 'timeGridWeek'}
      headerToolbar={
        isCompact
          ? { left: 'prev,next', center: 'title', right: 'today timeGridDay,timeGridWeek,dayGridMonth' }
          : { left: 'prev,next today', center: 'title', right: 'timeGridWeek,dayGridMonth' }
      }
      titleFormat={isCompact ? { month: 'short', day: 'numeric' } : undefined}
      // The console's one time style (a 12-hour clock with lowercase am/pm) in every view: '4:05pm'.
      eventTimeFormat={EVENT_TIME_FORMAT}
      buttonText={{ today: 'Today', month: 'Month', week: 'Week', day: 'Day' }}
      height="auto"
      nowIndicator
      events={events}
      editable={canModify}
      selectable={canModify}
      selectMirror
      // Blocks in every view, so the state's colour shows in the month view too.
      eventDisplay="block"
      // Rendered from the current data on every change (a mount-time attribute would go stale after an edit).
      eventContent={(arg) => {
        const schedule = scheduleOf(arg.event.extendedProps);
        return (
          <div
            className="schedule-event"
            title={`${schedule.name}: ${SCHEDULE_STATE_STYLES[schedule.state].label}`}
            style={{ overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', textDecoration: schedule.state === 'missed' ? 'line-through' : undefined }}
          >
            {arg.timeText && <b>{arg.timeText} </b>}
            {arg.event.title}
          </div>
        );
      }}
      datesSet={(info: DatesSetArg) => onRangeChange({ start: info.start.toISOString(), end: info.end.toISOString() })}
      eventClick={(info: EventClickArg) => {
        info.jsEvent.preventDefault();
        onEventClick(scheduleOf(info.event.extendedProps));
      }}
      select={(info: DateSelectArg) => {
        info.view.calendar.unselect();
        onSlotSelect(info.start.getTime());
      }}
      eventDrop={handleMove}
      eventResize={handleMove}
    />
  );
}

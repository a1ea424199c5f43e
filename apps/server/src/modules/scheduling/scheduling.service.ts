import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  DAILY_MASK,
  MAX_OCCURRENCES,
  scheduleDateProblems,
  SCHEDULE_MESSAGES,
  weekdayMask,
  type CreateScheduleBody,
  type Frequency,
  type ScheduledEvent,
  type ScheduleManifest,
  type Schedules,
  type UpdateScheduleBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordExhibitChange } from '../audit/audit-record.js';
import { AppError } from '../../lib/app-error.js';
import type { ItemAccess } from '../access/item-access.js';
import { loadRuntimeRows, type ExhibitRuntimeRows } from '../exhibit-runtime/exhibit-runtime.repository.js';
import { visibleRuntimeRows } from '../exhibit-runtime/visible-rows.js';
import { recordExhibit } from '../logging/records.js';
import { assertChangesAllowed, checkScheduleChanges } from './schedule-changes.js';
import { describeMask, occurrenceStarts, resolveTimeZone, sameDayIn, shortestGap, weekdayIn } from './schedule-recurrence.js';
import { presentScheduledEvent } from './scheduling.presenter.js';
import {
  deleteEvents,
  findExhibitSiteZone,
  findScheduledEvent,
  insertScheduledEvents,
  listScheduledEvents,
  replacePendingSeries,
  updatePendingEvent,
  type NewScheduledEvent,
  type ScheduledEventRow,
} from './scheduling.repository.js';

/**
 * The calendar of an exhibit (spec 2.9, 7.1): list, create, edit one occurrence or a whole series,
 * delete. A series is stored as one row per occurrence (rrule in the site's time zone) sharing a
 * `recurringId`; the executor (schedule-executor.ts) runs them.
 */

type CreateInput = z.output<typeof CreateScheduleBody>;
type UpdateInput = z.output<typeof UpdateScheduleBody>;

/** The exhibit's site time zone (its setting, else the server's); 404 when the exhibit is gone. */
export async function exhibitTimeZone(deps: AppDeps, exhibitId: string): Promise<string> {
  const zone = await findExhibitSiteZone(deps.db, exhibitId);
  if (zone === undefined) throw new AppError('NotFound', 'The exhibit does not exist.');
  return resolveTimeZone(zone, deps.config.TIME_ZONE);
}

/** Tells consoles showing the exhibit to read its schedules again. */
export function announceSchedulesChanged(deps: AppDeps, exhibitId: string): void {
  deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.schedulesChanged', exhibitId });
}

/**
 * The exhibit's events in a range. Items hidden to the caller are named by their manifest ids
 * only (the events still show; their display names do not).
 */
export async function listSchedules(
  deps: AppDeps,
  query: { exhibitId: string; start?: string; end?: string; canModify: boolean; access: ItemAccess },
): Promise<Schedules> {
  const timeZone = await exhibitTimeZone(deps, query.exhibitId);
  const range = { start: parseRangeDate(query.start, 'start'), end: parseRangeDate(query.end, 'end') };
  const [rows, runtime] = await Promise.all([listScheduledEvents(deps.db, query.exhibitId, range), loadRuntimeRows(deps.db, query.exhibitId)]);
  const visible = visibleRuntimeRows(runtime, query.access);
  return { schedules: rows.map((row) => presentScheduledEvent(row, visible)), timeZone, canModify: query.canModify };
}

/**
 * The event's changes checked against what the caller may see (a hidden item is as unknown as a
 * missing one, 400) and write (403 naming the item).
 */
async function checkChangesFor(deps: AppDeps, check: { exhibitId: string; changes: ScheduleManifest; access: ItemAccess }): Promise<ScheduleManifest> {
  const rows = visibleRuntimeRows(await loadRuntimeRows(deps.db, check.exhibitId), check.access);
  const changes = checkScheduleChanges(rows, check.changes);
  assertChangesAllowed(changes, check.access);
  return changes;
}

function parseRangeDate(iso: string | undefined, field: string): Date | undefined {
  if (iso === undefined) return undefined;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new AppError('ValidationError', `${field}: must be a date and time`);
  return new Date(time);
}

/** The event's name and dates checked with the spec's texts (the first problem answers 400 naming its field). */
function checkEventFields(input: CreateInput, now: Date, startMayBePast: boolean): { name: string; start: Date; end: Date | null; recurringEnd: Date | null } {
  const name = input.eventName.trim();
  if (!name) throw new AppError('ValidationError', `eventName: ${SCHEDULE_MESSAGES.nameRequired}`);
  const problems = scheduleDateProblems(
    { startDate: input.startDate, endDate: input.endDate, recurring: input.recurring, recurringEndDate: input.recurringEndDate },
    now.getTime(),
    !startMayBePast,
  );
  const first = Object.entries(problems)[0];
  if (first) throw new AppError('ValidationError', `${first[0]}: ${first[1]}`);
  return {
    name,
    start: new Date(input.startDate),
    end: input.endDate ? new Date(input.endDate) : null,
    recurringEnd: input.recurring && input.recurringEndDate ? new Date(input.recurringEndDate) : null,
  };
}

/** The frequency as stored: Daily is every day, Weekly the start's weekday in the site's zone, Custom the mask given. */
function normalizeFrequency(input: CreateInput, start: Date, zone: string): Frequency {
  const chosen = input.selectedFrequency;
  if (!chosen) throw new AppError('ValidationError', 'selectedFrequency: choose Daily, Weekly or Custom for a recurring event');
  if (chosen.value === 'Daily') return { label: 'Daily', value: 'Daily', altValue: DAILY_MASK };
  if (chosen.value === 'Weekly') return { label: 'Weekly', value: 'Weekly', altValue: weekdayMask(weekdayIn(start, zone)) };
  return { label: chosen.label || 'Custom', value: 'Custom', altValue: chosen.altValue };
}

type EventPlan = {
  exhibitId: string;
  name: string;
  start: Date;
  end: Date | null;
  changes: ScheduleManifest;
  by: string;
};

/** One row, or a series of rows with a new (or the given) recurring id. */
function planRows(plan: EventPlan, recurrence: { frequency: Frequency; recurringEnd: Date; zone: string; recurringId?: string } | null): NewScheduledEvent[] {
  const base = { exhibitId: plan.exhibitId, name: plan.name, changes: plan.changes, createdBy: plan.by };
  if (!recurrence) return [{ ...base, startDate: plan.start, endDate: plan.end, recurring: false }];
  const starts = occurrenceStarts({ start: plan.start, recurringEnd: recurrence.recurringEnd, mask: recurrence.frequency.altValue, timeZone: recurrence.zone, limit: MAX_OCCURRENCES });
  if (!starts.length) throw new AppError('ValidationError', `selectedFrequency: no ${describeMask(recurrence.frequency.altValue)} falls between the start and the recurring end date`);
  if (starts.length > MAX_OCCURRENCES) {
    throw new AppError('ValidationError', `recurringEndDate: a series has at most ${MAX_OCCURRENCES} occurrences; choose an earlier recurring end date`);
  }
  const duration = plan.end ? plan.end.getTime() - plan.start.getTime() : null;
  const gap = shortestGap(starts);
  if (duration !== null && gap !== null && duration >= gap) throw new AppError('ValidationError', `endDate: ${SCHEDULE_MESSAGES.occurrenceTooLong}`);
  const recurringId = recurrence.recurringId ?? randomUUID();
  return starts.map((start) => ({
    ...base,
    recurringId,
    startDate: start,
    endDate: duration === null ? null : new Date(start.getTime() + duration),
    recurring: true,
    frequency: recurrence.frequency,
    recurringStartDate: starts[0]!,
    recurringEndDate: recurrence.recurringEnd,
  }));
}

async function presentRows(deps: AppDeps, shown: { exhibitId: string; access: ItemAccess }, rows: ScheduledEventRow[]): Promise<{ schedules: ScheduledEvent[] }> {
  const runtime: ExhibitRuntimeRows = visibleRuntimeRows(await loadRuntimeRows(deps.db, shown.exhibitId), shown.access);
  return { schedules: rows.map((row) => presentScheduledEvent(row, runtime)) };
}

/** POST /exhibit-management/scheduling/{exhibitId}: one event, or a whole series (`access`: what the creator may change). */
export async function createSchedule(
  deps: AppDeps,
  create: { exhibitId: string; input: CreateInput; by: string; access: ItemAccess; audit: AuditContext },
): Promise<{ schedules: ScheduledEvent[] }> {
  const { exhibitId, input, by, access } = create;
  const zone = await exhibitTimeZone(deps, exhibitId);
  const fields = checkEventFields(input, deps.clock.now(), false);
  const changes = await checkChangesFor(deps, { exhibitId, changes: input.manifest, access });
  const plan: EventPlan = { exhibitId, name: fields.name, start: fields.start, end: fields.end, changes, by };
  const recurrence = input.recurring ? { frequency: normalizeFrequency(input, fields.start, zone), recurringEnd: fields.recurringEnd!, zone } : null;
  const rows = await insertScheduledEvents(deps.db, planRows(plan, recurrence));
  const what = recurrence ? `a series of ${rows.length} (${describeMask(recurrence.frequency.altValue)})` : 'once';
  recordExhibit(deps.logs, exhibitId, { eventType: 'schedule', message: `Scheduled event "${fields.name}" created by ${by}: ${what}, from ${fields.start.toISOString()}` });
  const resourceId = rows[0]?.recurringId ?? rows[0]?.id ?? exhibitId;
  await recordExhibitChange(deps, create.audit, { exhibitId, resource: 'schedule', resourceId, action: 'create', after: scheduleState(rows) });
  announceSchedulesChanged(deps, exhibitId);
  return presentRows(deps, { exhibitId, access }, rows);
}

/** A scheduled event (or series) as the audit log keeps it: its first occurrence's name, times and changes, and how many events. */
function scheduleState(rows: ScheduledEventRow[]): Record<string, unknown> {
  const first = rows[0];
  if (!first) return { events: 0 };
  return {
    name: first.name,
    startDate: first.startDate.toISOString(),
    endDate: first.endDate?.toISOString() ?? null,
    recurring: first.recurring,
    recurringEndDate: first.recurringEndDate?.toISOString() ?? null,
    changes: first.changes,
    events: rows.length,
  };
}

/** The event to edit or delete, in the exhibit the caller named; 404 otherwise. */
export async function requireScheduledEvent(deps: AppDeps, eventId: string): Promise<ScheduledEventRow> {
  const row = await findScheduledEvent(deps.db, eventId);
  if (!row) throw new AppError('NotFound', 'The scheduled event does not exist.');
  return row;
}

const ALREADY_RAN = 'This event has already run; it can no longer be changed.';

function sameFrequency(a: Frequency | null, b: Frequency | null | undefined): boolean {
  return (a?.value ?? null) === (b?.value ?? null) && (a?.value !== 'Custom' || a.altValue === b?.altValue);
}

/**
 * PUT /exhibit-management/scheduling/{eventId}: one occurrence (`changeAll` false: its name, dates,
 * changes), or the series from it on (`changeAll`: every occurrence not yet run is replaced by the
 * new definition, starting at this one's new start). Changing the frequency or the series' end
 * needs `changeAll`; an occurrence that ran cannot change (409).
 */
export async function updateSchedule(
  deps: AppDeps,
  update: { row: ScheduledEventRow; input: UpdateInput; by: string; access: ItemAccess; audit: AuditContext },
): Promise<{ schedules: ScheduledEvent[] }> {
  const { row, input, by, access } = update;
  if (row.state !== 'scheduled') throw new AppError('Conflict', ALREADY_RAN);
  const zone = await exhibitTimeZone(deps, row.exhibitId);
  const startChanged = new Date(input.startDate).getTime() !== row.startDate.getTime();
  const fields = checkEventFields(input, deps.clock.now(), !startChanged);
  const changes = await checkChangesFor(deps, { exhibitId: row.exhibitId, changes: input.manifest, access });
  const plan: EventPlan = { exhibitId: row.exhibitId, name: fields.name, start: fields.start, end: fields.end, changes, by };
  const seriesChanged =
    input.recurring !== row.recurring ||
    (input.recurring && (!sameFrequency(row.frequency, input.selectedFrequency) || !sameDayIn(fields.recurringEnd, row.recurringEndDate, zone)));
  let rows: ScheduledEventRow[] | undefined;
  if (row.recurringId && seriesChanged && !input.changeAll) {
    throw new AppError('ValidationError', 'changeAll: a change of the frequency or of the end of a series applies to the whole series; apply it to all events');
  }
  if (!row.recurringId && !input.recurring) {
    const updated = await updatePendingEvent(deps.db, row.id, { name: plan.name, startDate: plan.start, endDate: plan.end, changes });
    rows = updated ? [updated] : undefined;
  } else if (row.recurringId && !input.changeAll) {
    const updated = await updatePendingEvent(deps.db, row.id, { name: plan.name, startDate: plan.start, endDate: plan.end, changes });
    rows = updated ? [updated] : undefined;
  } else {
    // A new series (a single event made recurring), the series rewritten, or a series made a single event.
    const recurrence = input.recurring
      ? { frequency: normalizeFrequency(input, fields.start, zone), recurringEnd: fields.recurringEnd!, zone, recurringId: row.recurringId ?? undefined }
      : null;
    rows = await replacePendingSeries(deps.db, { recurringId: row.recurringId ?? row.id, editedId: row.id, rows: planRows(plan, recurrence) });
  }
  if (!rows) throw new AppError('Conflict', ALREADY_RAN);
  const scope = row.recurringId && input.changeAll ? `the series (${rows.length} events)` : 'one event';
  recordExhibit(deps.logs, row.exhibitId, { eventType: 'schedule', message: `Scheduled event "${plan.name}" changed by ${by}: ${scope}` });
  const changed = { exhibitId: row.exhibitId, resource: 'schedule', resourceId: row.recurringId ?? row.id, action: 'update' as const };
  await recordExhibitChange(deps, update.audit, { ...changed, before: scheduleState([row]), after: scheduleState(rows) });
  announceSchedulesChanged(deps, row.exhibitId);
  return presentRows(deps, { exhibitId: row.exhibitId, access }, rows);
}

/**
 * DELETE /exhibit-management/scheduling/{eventId}: the occurrence, or (`changeAll`) every
 * occurrence of its series. An occurrence running right now is left (409 when nothing else went).
 */
export async function deleteSchedule(
  deps: AppDeps,
  row: ScheduledEventRow,
  options: { changeAll: boolean; by: string; audit: AuditContext },
): Promise<{ deleted: number }> {
  const all = options.changeAll && row.recurringId;
  const deleted = all ? await deleteEvents(deps.db, { recurringId: row.recurringId! }) : await deleteEvents(deps.db, { ids: [row.id] });
  if (!deleted) throw new AppError('Conflict', 'The event is running now; try again in a moment.');
  const what = all ? `the series (${deleted} events)` : 'one event';
  recordExhibit(deps.logs, row.exhibitId, { eventType: 'schedule', message: `Scheduled event "${row.name}" deleted by ${options.by}: ${what}` });
  const before = { ...scheduleState([row]), events: deleted };
  await recordExhibitChange(deps, options.audit, { exhibitId: row.exhibitId, resource: 'schedule', resourceId: row.recurringId ?? row.id, action: 'delete', before });
  announceSchedulesChanged(deps, row.exhibitId);
  return { deleted };
}

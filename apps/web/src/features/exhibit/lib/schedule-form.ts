import { DateTime } from 'luxon';
import {
  DAILY_MASK,
  DEFAULT_END_MONTHS,
  DEFAULT_START_OFFSET_MS,
  frequencyOf,
  SCHEDULE_MESSAGES,
  scheduleDateProblems,
  type CreateSchedule,
  type Frequency,
  type FrequencyValue,
  type OpMode,
  type ScheduleDateProblems,
  type ScheduledEvent,
  type ScheduleManifestInput,
  type SettingValue,
  type UpdateSchedule,
} from '@plinth/shared';

/** One change an event applies at its start, as the form holds it. */
export type ScheduleChange =
  | {
      kind: 'control';
      controlId: string;
      itemId: string | null;
      /** A group control: it fires one of its items, which must be chosen. */
      needsItem: boolean;
    }
  | { kind: 'setting'; settingId: string; value: SettingValue; listName: string | null; listId: string | null }
  | { kind: 'content'; settingId: string; value: string | number | null }
  | { kind: 'opMode'; opMode: OpMode };

/**
 * The event form. Dates are wall-clock times of the site's zone as a `datetime-local` input holds
 * them ('yyyy-MM-ddTHH:mm'); an empty end means the event never ends.
 */
export type ScheduleFormValues = {
  name: string;
  start: string;
  end: string;
  recurring: boolean;
  frequency: FrequencyValue;
  /** The Sunday-first day mask of a Custom frequency. */
  mask: string;
  recurringEnd: string;
  changes: ScheduleChange[];
};

/** Problems of the form, by field; `changes` covers the list of changes. */
export type ScheduleFormProblems = ScheduleDateProblems & Partial<Record<'name' | 'mask' | 'changes', string>>;

const WALL_FORMAT = "yyyy-MM-dd'T'HH:mm";
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** An instant (ISO or epoch ms) as the wall-clock time of `zone`, for a `datetime-local` input. */
export function toWallTime(instant: string | number, zone: string): string {
  const dt = typeof instant === 'number' ? DateTime.fromMillis(instant, { zone }) : DateTime.fromISO(instant, { zone });
  return dt.isValid ? dt.toFormat(WALL_FORMAT) : '';
}

/** A wall-clock time of `zone` ('yyyy-MM-ddTHH:mm[:ss]') as an ISO instant, or null when it is no date. */
export function wallTimeToIso(wall: string, zone: string): string | null {
  if (!/^\d{4}-/.test(wall)) return null;
  const dt = DateTime.fromISO(wall, { zone });
  return dt.isValid ? dt.toUTC().toISO() : null;
}

function wallToMillis(wall: string, zone: string): number | null {
  const iso = wallTimeToIso(wall, zone);
  return iso === null ? null : Date.parse(iso);
}

/** What the date checks read: the instant, or the text as typed so that a long year or garbage is named. */
function checkable(wall: string, zone: string): string {
  return wallTimeToIso(wall, zone) ?? wall;
}

/** Sunday = 0 … Saturday = 6 of a wall-clock time. */
function weekdayOf(wall: string, zone: string): number {
  const dt = DateTime.fromISO(wall, { zone });
  return dt.isValid ? dt.weekday % 7 : 0;
}

/** The form of a new event: start now plus 5 minutes (or `startMs`), end 3 months later (spec 5, 9). */
export function newScheduleValues(zone: string, nowMs: number, startMs?: number): ScheduleFormValues {
  const start = DateTime.fromMillis(startMs ?? nowMs + DEFAULT_START_OFFSET_MS, { zone }).startOf('minute');
  const end = start.plus({ months: DEFAULT_END_MONTHS });
  return {
    name: '',
    start: start.toFormat(WALL_FORMAT),
    end: end.toFormat(WALL_FORMAT),
    recurring: false,
    frequency: 'Daily',
    mask: DAILY_MASK,
    recurringEnd: '',
    changes: [],
  };
}

/** The changes of a stored manifest, as the form holds them. */
export function changesOfManifest(manifest: ScheduleManifestInput): ScheduleChange[] {
  return [
    ...(manifest.controls ?? []).map(
      (c): ScheduleChange => ({ kind: 'control', controlId: c.controlId, itemId: c.controlGroupItemId ?? null, needsItem: Boolean(c.controlGroupItemId) }),
    ),
    ...(manifest.settings ?? []).map(
      (s): ScheduleChange => ({ kind: 'setting', settingId: s.settingId, value: s.value, listName: s.listName ?? null, listId: s.listId ?? null }),
    ),
    ...(manifest.strapiContent ?? []).map((s): ScheduleChange => ({ kind: 'content', settingId: s.strapiContentId, value: s.value })),
    ...(manifest.opMode ? [{ kind: 'opMode', opMode: manifest.opMode } satisfies ScheduleChange] : []),
  ];
}

/** The request's `manifest` of the form's changes. */
export function manifestOfChanges(changes: ScheduleChange[]): ScheduleManifestInput {
  const manifest: ScheduleManifestInput = { controls: [], settings: [], strapiContent: [], opMode: null };
  for (const change of changes) {
    if (change.kind === 'control') manifest.controls!.push({ controlId: change.controlId, controlGroupItemId: change.itemId });
    else if (change.kind === 'setting') {
      manifest.settings!.push({
        settingId: change.settingId,
        value: change.value,
        ...(change.listName ? { listName: change.listName } : {}),
        ...(change.listId ? { listId: change.listId } : {}),
      });
    } else if (change.kind === 'content') manifest.strapiContent!.push({ strapiContentId: change.settingId, value: change.value });
    else manifest.opMode = change.opMode;
  }
  return manifest;
}

/** A key naming what a change changes: two changes of one thing are one too many. */
export function changeKey(change: ScheduleChange): string {
  switch (change.kind) {
    case 'control':
      return `control:${change.controlId}`;
    case 'setting':
      return `setting:${change.settingId}:${change.listName ?? ''}`;
    case 'content':
      return `content:${change.settingId}`;
    case 'opMode':
      return 'opMode';
  }
}

/** The form of a stored occurrence, its dates in the site's zone. */
export function scheduleValuesOf(event: ScheduledEvent, zone: string): ScheduleFormValues {
  const frequency = event.frequency ?? event.selectedFrequency;
  return {
    name: event.name,
    start: toWallTime(event.startDate, zone),
    end: event.endDate ? toWallTime(event.endDate, zone) : '',
    recurring: event.recurring,
    frequency: frequency?.value ?? 'Daily',
    mask: frequency?.altValue ?? DAILY_MASK,
    recurringEnd: event.recurringEndDate ? toWallTime(event.recurringEndDate, zone) : '',
    changes: changesOfManifest(event.manifest),
  };
}

/** The frequency the form chose (Weekly recurs on the start's weekday), or null when it does not recur. */
export function frequencyOfValues(values: ScheduleFormValues, zone: string): Frequency | null {
  if (!values.recurring) return null;
  return frequencyOf(values.frequency, { startWeekday: weekdayOf(values.start, zone), mask: values.mask });
}

/**
 * Recurring switched on or off. On: a series needs an end date (start plus 3 months unless one is
 * set), and an occurrence must end before the next starts, so an end more than a day after the
 * start becomes start plus one hour.
 */
export function withRecurring(values: ScheduleFormValues, recurring: boolean, zone: string): ScheduleFormValues {
  if (!recurring) return { ...values, recurring };
  const start = wallToMillis(values.start, zone);
  const end = wallToMillis(values.end, zone);
  const next = { ...values, recurring };
  if (start === null) return next;
  if (end === null || end - start > DAY_MS) next.end = toWallTime(start + HOUR_MS, zone);
  if (!values.recurringEnd) next.recurringEnd = toWallTime(DateTime.fromMillis(start, { zone }).plus({ months: DEFAULT_END_MONTHS }).toMillis(), zone);
  return next;
}

/** The earliest recurring end date a series may have: its start plus one day (spec 5). */
export function minRecurringEnd(values: ScheduleFormValues, zone: string): string | undefined {
  const start = wallToMillis(values.start, zone);
  return start === null ? undefined : toWallTime(start + DAY_MS, zone);
}

/** Whether the control of a change is complete (a group control names its item). */
function isChangeComplete(change: ScheduleChange): boolean {
  return change.kind !== 'control' || !change.needsItem || change.itemId !== null;
}

/**
 * Every problem of the form, with the spec's texts: the shared date rules (a start in the future
 * unless `checkStartInFuture` is false, an end after it, a series ending a day or more after it,
 * years of 4 digits), a name, a day for Custom, at least one complete change.
 */
export function scheduleFormProblems(values: ScheduleFormValues, zone: string, nowMs: number, checkStartInFuture = true): ScheduleFormProblems {
  const problems: ScheduleFormProblems = scheduleDateProblems(
    {
      startDate: checkable(values.start, zone),
      endDate: values.end ? checkable(values.end, zone) : null,
      recurring: values.recurring,
      recurringEndDate: values.recurringEnd ? checkable(values.recurringEnd, zone) : null,
    },
    nowMs,
    checkStartInFuture,
  );
  if (!values.name.trim()) problems.name = SCHEDULE_MESSAGES.nameRequired;
  if (values.recurring && values.frequency === 'Custom' && !values.mask.includes('1')) problems.mask = SCHEDULE_MESSAGES.emptyMask;
  if (values.changes.length === 0) problems.changes = SCHEDULE_MESSAGES.noChanges;
  else if (!values.changes.every(isChangeComplete)) problems.changes = 'Choose the item each group control fires.';
  return problems;
}

/** The POST body of the form. */
export function createBodyOf(values: ScheduleFormValues, zone: string): CreateSchedule {
  const frequency = frequencyOfValues(values, zone);
  return {
    manifest: manifestOfChanges(values.changes),
    eventName: values.name.trim(),
    startDate: wallTimeToIso(values.start, zone) ?? values.start,
    endDate: values.end ? (wallTimeToIso(values.end, zone) ?? values.end) : null,
    recurring: values.recurring,
    selectedFrequency: frequency,
    recurringEndDate: values.recurring ? (wallTimeToIso(values.recurringEnd, zone) ?? values.recurringEnd) : null,
  };
}

/** The PUT body of the form for an occurrence. */
export function updateBodyOf(event: ScheduledEvent, values: ScheduleFormValues, zone: string, changeAll: boolean): UpdateSchedule {
  return { ...createBodyOf(values, zone), exhibitId: event.exhibitId, recurringId: event.recurringId, changeAll };
}

/** The PUT body that moves an occurrence to new instants (a drag on the calendar), all else kept; no end given keeps its length. */
export function movedBodyOf(event: ScheduledEvent, start: Date, end: Date | null, changeAll: boolean): UpdateSchedule {
  return {
    manifest: event.manifest,
    eventName: event.name,
    startDate: start.toISOString(),
    endDate: end ? end.toISOString() : event.endDate ? new Date(Date.parse(event.endDate) + start.getTime() - Date.parse(event.startDate)).toISOString() : null,
    recurring: event.recurring,
    selectedFrequency: event.frequency ?? event.selectedFrequency,
    recurringEndDate: event.recurringEndDate,
    exhibitId: event.exhibitId,
    recurringId: event.recurringId,
    changeAll,
  };
}

/**
 * Whether an edit changes the series itself (recurring on or off, the frequency or its days, the
 * series end): such an edit applies to every future occurrence, never to one alone.
 */
export function isSeriesWideChange(initial: ScheduleFormValues, values: ScheduleFormValues, zone: string): boolean {
  if (initial.recurring !== values.recurring) return true;
  if (!values.recurring) return false;
  const before = frequencyOfValues(initial, zone);
  const after = frequencyOfValues(values, zone);
  if (before?.value !== after?.value || before?.altValue !== after?.altValue) return true;
  return wallTimeToIso(initial.recurringEnd, zone) !== wallTimeToIso(values.recurringEnd, zone);
}

/** The text of a server's 400 answer without its leading field name ('startDate: Start date …' → 'Start date …'). */
export function serverProblemText(message: string): string {
  return message.replace(/^[A-Za-z][\w.[\]]*:\s+/, '');
}

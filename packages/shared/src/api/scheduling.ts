import { z } from 'zod';
import { Id, IsoDate } from './common.js';
import { SettingValueSchema } from './setting-value.js';
import { OpModeSchema } from '../values.js';

/**
 * Scheduled events of an exhibit (spec 2.9, 3 Scheduled event, 5 Event, 7.1 scheduling calls):
 * the REST contract, the frequencies and day masks, and the date rules the console and the server
 * share (so both say the same words).
 */

/** The spec's texts (5 Event). */
export const SCHEDULE_MESSAGES = {
  nameRequired: 'Event name is required.',
  startInPast: 'Start date must be in the future.',
  endBeforeStart: 'End date must occur after Start Date',
  yearTooLong: 'Dates must have a year of at most 4 digits.',
  recurringEndTooSoon: 'Recurring end date must be at least one day after the start.',
  occurrenceTooLong: 'A recurring event must end before its next occurrence starts.',
  emptyMask: 'Choose at least one day.',
  noChanges: 'Choose at least one change to apply.',
} as const;

/** Days of a week in a day mask, Sunday first (the mask's character order). */
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** The mask of Daily: every day. */
export const DAILY_MASK = '1111111';
/** Default start of a new event: now plus 5 minutes; default end: start plus 3 months (spec 9). */
export const DEFAULT_START_OFFSET_MS = 5 * 60_000;
export const DEFAULT_END_MONTHS = 3;
/** An occurrence whose time passed by more than this while no server ran is marked missed, not fired (issue 11). */
export const MISSED_AFTER_MS = 5 * 60_000;
/** The longest series: occurrences are stored one per row, so a series is bounded. */
export const MAX_OCCURRENCES = 1000;

export const FREQUENCIES = ['Daily', 'Weekly', 'Custom'] as const;
export type FrequencyValue = (typeof FREQUENCIES)[number];

/** A 7-character Sunday-to-Saturday mask of '0' and '1' with at least one day. */
export const DayMask = z
  .string()
  .regex(/^[01]{7}$/, { message: 'must be 7 characters of 0 and 1, Sunday first' })
  .refine((mask) => mask.includes('1'), { message: SCHEDULE_MESSAGES.emptyMask });

/** The frequency of a recurring event (spec 3: label, value, altValue day mask). */
export const FrequencySchema = z.object({
  label: z.string().max(50),
  value: z.enum(FREQUENCIES),
  /** The day mask; Daily is always '1111111', Weekly the start's weekday. */
  altValue: DayMask,
});
export type Frequency = z.infer<typeof FrequencySchema>;

/** Sunday = 0 … Saturday = 6 → the mask with only that day. */
export function weekdayMask(weekday: number): string {
  return DAY_NAMES.map((_, i) => (i === weekday ? '1' : '0')).join('');
}

/** The frequency object for a choice: Daily, Weekly on the start's weekday, or Custom with a mask. */
export function frequencyOf(value: FrequencyValue, options: { startWeekday: number; mask?: string }): Frequency {
  if (value === 'Daily') return { label: 'Daily', value, altValue: DAILY_MASK };
  if (value === 'Weekly') return { label: 'Weekly', value, altValue: weekdayMask(options.startWeekday) };
  return { label: 'Custom', value, altValue: options.mask ?? weekdayMask(options.startWeekday) };
}

/** What an event applies at its start (the request's `manifest`). */
export const ScheduleManifestSchema = z.object({
  /** Controls to fire, by manifest id; a group control names the item to fire. */
  controls: z
    .array(z.object({ controlId: z.string().min(1).max(200), controlGroupItemId: z.string().min(1).max(200).nullish() }))
    .max(100)
    .default([]),
  /** Setting values, by manifest id; a list item's setting names the list item (`listName`) and, when ambiguous, the list. */
  settings: z
    .array(
      z.object({
        settingId: z.string().min(1).max(200),
        value: SettingValueSchema,
        listName: z.string().min(1).max(200).nullish(),
        listId: z.string().min(1).max(200).nullish(),
      }),
    )
    .max(200)
    .default([]),
  /** Content-service (StrapiContent) settings: the entry id to choose, or null for none. */
  strapiContent: z
    .array(z.object({ strapiContentId: z.string().min(1).max(200), value: z.union([z.string().max(200), z.number()]).nullable() }))
    .max(100)
    .default([]),
  /** The op mode to switch to, or null to leave it. */
  opMode: OpModeSchema.nullish(),
});
export type ScheduleManifest = z.infer<typeof ScheduleManifestSchema>;
export type ScheduleManifestInput = z.input<typeof ScheduleManifestSchema>;

/** POST /exhibit-management/scheduling/{exhibitId} */
export const CreateScheduleBody = z.object({
  manifest: ScheduleManifestSchema,
  eventName: z.string().max(200),
  /** ISO date-time: when the event (its first occurrence) applies. */
  startDate: IsoDate,
  /** ISO date-time: when it ends and what it changed goes back; null: it never ends. For a series, the first occurrence's end. */
  endDate: IsoDate.nullable(),
  recurring: z.boolean().default(false),
  /** Required when recurring. */
  selectedFrequency: FrequencySchema.nullish(),
  /** ISO date-time: the last day a series may start on (at least one day after the start). Required when recurring. */
  recurringEndDate: IsoDate.nullish(),
});
export type CreateSchedule = z.input<typeof CreateScheduleBody>;

/** PUT /exhibit-management/scheduling/{eventId}: as POST plus the exhibit, the series and whether to change all of it. */
export const UpdateScheduleBody = CreateScheduleBody.extend({
  exhibitId: Id,
  recurringId: Id.nullish(),
  /** Apply to every occurrence of the series that has not run yet (required when the frequency or the series end changes). */
  changeAll: z.boolean().default(false),
});
export type UpdateSchedule = z.input<typeof UpdateScheduleBody>;

/** DELETE /exhibit-management/scheduling/{eventId}?changeAll&recurringId */
export const DeleteScheduleQuery = z.object({
  changeAll: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  recurringId: Id.optional(),
});

/** GET /exhibit-management/scheduling/{exhibitId}?start&end: occurrences starting in the range (all when omitted). */
export const ListSchedulesQuery = z.object({ start: IsoDate.optional(), end: IsoDate.optional() });

/**
 * Where an occurrence is: `scheduled` (waiting), `running`, `completed` (its changes applied, drawn
 * grey), `missed` (its time passed while no server ran, by more than 5 minutes), `failed` (nothing
 * could be applied: the exhibit or every item was gone).
 */
export const SCHEDULE_STATES = ['scheduled', 'running', 'completed', 'missed', 'failed'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];
/** What happened at the end: `none` (no end or nothing to restore), `pending`, `restored`. */
export const SCHEDULE_END_STATES = ['none', 'pending', 'restored'] as const;

/** One occurrence as the calendar shows it (spec 3 Scheduled event). */
export const ScheduledEventSchema = z.object({
  id: Id,
  exhibitId: Id,
  name: z.string(),
  startDate: IsoDate,
  endDate: IsoDate.nullable(),
  recurringStartDate: IsoDate.nullable(),
  recurringEndDate: IsoDate.nullable(),
  recurring: z.boolean(),
  selectedFrequency: FrequencySchema.nullable(),
  frequency: FrequencySchema.nullable(),
  opMode: OpModeSchema.nullable(),
  completed: z.boolean(),
  state: z.enum(SCHEDULE_STATES),
  endState: z.enum(SCHEDULE_END_STATES),
  /** When it ran (ISO), and what happened, one line per change ("Setting "volume": 3", "Control "restart": failed (offline)"). */
  ranAt: IsoDate.nullable(),
  outcome: z.array(z.string()),
  recurringId: Id.nullable(),
  manifest: ScheduleManifestSchema,
  schedulecontrols: z.array(z.object({ controlId: z.string(), control: z.string(), controlGroupItemId: z.string().nullable() })),
  schedulesettings: z.array(z.object({ settingId: z.string(), setting: z.string(), value: SettingValueSchema, listName: z.string().nullable() })),
  schedulestrapicontents: z.array(
    z.object({ strapiContentId: z.string(), strapicontent: z.string(), value: z.union([z.string(), z.number()]).nullable() }),
  ),
  createdBy: z.string().nullable(),
});
export type ScheduledEvent = z.infer<typeof ScheduledEventSchema>;

/** GET /exhibit-management/scheduling/{exhibitId} */
export const SchedulesResponse = z.object({
  schedules: z.array(ScheduledEventSchema),
  /** The site's IANA time zone: recurrences are computed in it and the calendar shows it. */
  timeZone: z.string(),
  /** Whether the caller may create, edit and delete events (canModify). */
  canModify: z.boolean(),
});
export type Schedules = z.infer<typeof SchedulesResponse>;

/** POST and PUT answer the occurrences written (a series: all of them). */
export const ScheduleWriteResponse = z.object({ schedules: z.array(ScheduledEventSchema) });
/** DELETE answers how many occurrences were removed. */
export const ScheduleDeleteResponse = z.object({ deleted: z.number().int() });
/** POST /exhibit-management/scheduling/run: what the executor did now. */
export const ScheduleRunResponse = z.object({ started: z.number().int(), ended: z.number().int(), missed: z.number().int() });

/** The year of an ISO date, or NaN. */
function yearOf(iso: string): number {
  const match = /^([+-]?\d+)-/.exec(iso.trim());
  return match ? Number(match[1]) : Number.NaN;
}

/** The date fields of an event form or request, checked the same way in the console and on the server. */
export type ScheduleDates = {
  startDate: string;
  endDate: string | null;
  recurring: boolean;
  recurringEndDate?: string | null;
};

export type ScheduleDateProblems = Partial<Record<'startDate' | 'endDate' | 'recurringEndDate', string>>;

const DAY_MS = 86_400_000;

/**
 * The spec's date rules: a start in the future, an end after the start, a series ending at least a
 * day after the start, years of at most 4 digits. `now` is the caller's clock; `checkStartInFuture`
 * is false when an occurrence that already exists keeps its start.
 */
export function scheduleDateProblems(dates: ScheduleDates, now: number, checkStartInFuture = true): ScheduleDateProblems {
  const problems: ScheduleDateProblems = {};
  const check = (field: keyof ScheduleDateProblems, iso: string | null | undefined): number | null => {
    if (iso === null || iso === undefined || iso === '') return null;
    const year = yearOf(iso);
    const time = Date.parse(iso);
    if (!(year >= 0 && year <= 9999) || iso.trim().replace(/^[+-]/, '').split('-')[0]!.length > 4) {
      problems[field] = SCHEDULE_MESSAGES.yearTooLong;
      return null;
    }
    if (Number.isNaN(time)) {
      problems[field] = 'must be a date and time';
      return null;
    }
    return time;
  };
  const start = check('startDate', dates.startDate);
  const end = check('endDate', dates.endDate);
  const recurringEnd = dates.recurring ? check('recurringEndDate', dates.recurringEndDate) : null;
  if (start === null && !problems.startDate) problems.startDate = 'must be a date and time';
  if (start !== null && checkStartInFuture && start <= now) problems.startDate = SCHEDULE_MESSAGES.startInPast;
  if (start !== null && end !== null && end <= start) problems.endDate = SCHEDULE_MESSAGES.endBeforeStart;
  if (dates.recurring && start !== null && !problems.recurringEndDate) {
    if (recurringEnd === null) problems.recurringEndDate = 'A recurring event needs a recurring end date.';
    else if (recurringEnd < start + DAY_MS) problems.recurringEndDate = SCHEDULE_MESSAGES.recurringEndTooSoon;
  }
  return problems;
}

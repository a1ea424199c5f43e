import { DateTime } from 'luxon';
import rrule from 'rrule';
import { DAY_NAMES, isTimeZone } from '@plinth/shared';

const { RRule } = rrule;

/**
 * The occurrences of a series, computed with rrule in the site's time zone (luxon converts): a
 * daily 09:00 event stays at 09:00 local time across daylight-saving changes. rrule works on
 * "floating" times, the local wall clock written as if it were UTC; luxon turns each wall-clock
 * time back into an instant in the zone (a time that does not exist on a spring-forward day moves
 * forward by the gap, as clocks do).
 */

const WEEKDAYS = [RRule.SU, RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA];

/** The time zone of a site: its own setting when valid, else the server's (TIME_ZONE or the machine's). */
export function resolveTimeZone(siteZone: string | null | undefined, serverZone: string | undefined): string {
  if (siteZone && isTimeZone(siteZone)) return siteZone;
  if (serverZone && isTimeZone(serverZone)) return serverZone;
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function floating(local: DateTime): Date {
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond));
}

function fromFloating(date: Date, zone: string): Date {
  return DateTime.fromObject(
    {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
      millisecond: date.getUTCMilliseconds(),
    },
    { zone },
  ).toJSDate();
}

export type Series = {
  /** The first occurrence's start; later ones keep its local time of day. */
  start: Date;
  /** The last day (in the zone) an occurrence may start on. */
  recurringEnd: Date;
  /** 7 characters of 0 and 1, Sunday first. */
  mask: string;
  timeZone: string;
  /** Stop after this many (the caller refuses a longer series). */
  limit: number;
};

/** The starts of every occurrence of the series, in order, at most `limit + 1` (so the caller can tell it was cut). */
export function occurrenceStarts(series: Series): Date[] {
  const local = DateTime.fromJSDate(series.start, { zone: series.timeZone });
  const lastDay = DateTime.fromJSDate(series.recurringEnd, { zone: series.timeZone }).endOf('day');
  const byweekday = WEEKDAYS.filter((_, i) => series.mask[i] === '1');
  const rule = new RRule({ freq: RRule.WEEKLY, interval: 1, byweekday, dtstart: floating(local), until: floating(lastDay) });
  const starts = rule.all((_, index) => index <= series.limit);
  return starts.map((d) => fromFloating(d, series.timeZone));
}

/** The shortest time between two consecutive occurrences, or null for fewer than two. */
export function shortestGap(starts: Date[]): number | null {
  let gap: number | null = null;
  for (let i = 1; i < starts.length; i++) {
    const d = starts[i]!.getTime() - starts[i - 1]!.getTime();
    if (gap === null || d < gap) gap = d;
  }
  return gap;
}

/** The weekday (0 Sunday … 6 Saturday) of an instant in a zone. */
export function weekdayIn(date: Date, zone: string): number {
  return DateTime.fromJSDate(date, { zone }).weekday % 7;
}

/** "Mondays and Wednesdays" for a mask, for log lines. */
export function describeMask(mask: string): string {
  if (mask === '1111111') return 'every day';
  return DAY_NAMES.filter((_, i) => mask[i] === '1').join(', ');
}

/** Whether two instants fall on the same day in the zone (a series' end is a day, whatever its time). */
export function sameDayIn(a: Date | null, b: Date | null, zone: string): boolean {
  if (!a || !b) return a === b;
  return DateTime.fromJSDate(a, { zone }).toISODate() === DateTime.fromJSDate(b, { zone }).toISODate();
}

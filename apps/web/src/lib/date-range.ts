import dayjs from 'dayjs';

/** A start and an end date-time; the end is never before the start. */
export type DateRange = { start: Date; end: Date };

/** The `ms` milliseconds up to `now`. */
export function rangeBefore(ms: number, now: Date = new Date()): DateRange {
  return { start: new Date(now.getTime() - ms), end: now };
}

/** The range with a new start: an end now before it follows it (spec section 4). */
export function withStart(range: DateRange, start: Date): DateRange {
  return { start, end: range.end < start ? start : range.end };
}

/** The range with a new end, which may not be before the start: such an end becomes the start. */
export function withEnd(range: DateRange, end: Date): DateRange {
  return { start: range.start, end: end < range.start ? range.start : end };
}

/** A @mantine/dates picker's value (`YYYY-MM-DD HH:mm:ss`, local time) as a Date; null when empty or unreadable. */
export function parsePickerValue(value: string | null): Date | null {
  if (!value) return null;
  const date = dayjs(value);
  return date.isValid() ? date.toDate() : null;
}

/** The viewer's IANA time zone (reports bucket days and hours in it); UTC when the browser does not say. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

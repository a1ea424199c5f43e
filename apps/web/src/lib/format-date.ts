import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { TOKEN_DATE_LENGTH } from '@plinth/shared';
import { NO_VALUE } from './no-value';

dayjs.extend(relativeTime);

/**
 * Every date format of the console, named by where the spec shows it (section 9 of both
 * documents): MM/DD/YYYY with the time in files and hardware cards, MM-DD-YYYY plus the time
 * elsewhere. One time style everywhere: a 12-hour clock with a lowercase am/pm, as the spec writes
 * it for files ("h:mm a"), seconds only where the spec asks for them (device times, logs). Add a
 * format here rather than formatting a date in a feature.
 */
export const DATE_FORMATS = {
  /** Files and the site's hardware cards: 03/14/2026, 4:05 pm. */
  card: 'MM/DD/YYYY, h:mm a',
  /** The exhibit's connected-hardware cards, which show seconds: 03/14/2026, 4:05:09 pm. */
  cardWithSeconds: 'MM/DD/YYYY, h:mm:ss a',
  /** Exhibit status and setting values of type Date, scheduled events: 03-14-2026 4:05 pm. */
  value: 'MM-DD-YYYY h:mm a',
  /** Hardware details and firmware tables: 03-14-2026 4:05:09 pm. */
  detail: 'MM-DD-YYYY h:mm:ss a',
  /** Log times: a long date with seconds, March 14, 2026 4:05:09 pm. */
  log: 'MMMM D, YYYY h:mm:ss a',
  /** The start and end pickers of the logs and reports tabs, and Date setting pickers: 03-14-2026 4:05 pm. */
  picker: 'MM-DD-YYYY h:mm a',
  /** Exhibit report labels (the bucket starts), in the viewer's zone: 03-14 16:00. */
  reportBucket: 'MM-DD HH:mm',
  /** Hardware report labels, one a day: 03-14. */
  reportDay: 'MM-DD',
  /** The time stamp in a downloaded file's name: 20260314-160509. */
  fileStamp: 'YYYYMMDD-HHmmss',
} as const;

export type DateFormat = keyof typeof DATE_FORMATS;

/** What a missing or unreadable date shows unless the caller names another text. */
export const NO_DATE = NO_VALUE;

/**
 * A date-time (an ISO string from the server, what a device sent, epoch milliseconds or a Date) in
 * one of the console's formats, in local time. A missing or unreadable value shows `fallback`.
 */
export function formatDate(value: string | number | Date | null | undefined, format: DateFormat, fallback: string = NO_DATE): string {
  if (value === null || value === undefined || value === '') return fallback;
  // Parsed as the browser does (not dayjs's own parser, which reads a date without a zone as local).
  const date = dayjs(new Date(value));
  return date.isValid() ? date.format(DATE_FORMATS[format]) : fallback;
}

/** A token's created date: the first 10 characters of its ISO string (spec: 2026-03-14). */
export function formatTokenDate(iso: string): string {
  return iso.slice(0, TOKEN_DATE_LENGTH);
}

/**
 * 'Online for 2 hours' or 'Last online 3 days ago' from the last online change; 'Never online'
 * for an offline device that never was online. Null when there is nothing to say: an online device
 * without a recorded change, or an unreadable date.
 */
export function onlineSinceText(online: boolean, lastOnlineChange: string | null, now: Date = new Date()): string | null {
  if (!lastOnlineChange) return online ? null : 'Never online';
  const changed = dayjs(lastOnlineChange);
  if (!changed.isValid()) return null;
  // A server clock slightly ahead must not read "in a few seconds".
  const at = changed.isAfter(now) ? dayjs(now) : changed;
  return online ? `Online for ${at.from(now, true)}` : `Last online ${at.from(now)}`;
}

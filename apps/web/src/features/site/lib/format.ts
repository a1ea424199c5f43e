import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** 'Online for 3 hours' / 'Last online 2 days ago' from the last online change; 'Never online' without one. */
export function onlineSinceText(online: boolean, lastOnlineChange: string | null, now: Date = new Date()): string {
  if (!lastOnlineChange) return online ? 'Online' : 'Never online';
  const changed = dayjs(lastOnlineChange);
  if (!changed.isValid()) return online ? 'Online' : 'Offline';
  // A server clock slightly ahead must not read "in a few seconds".
  const at = changed.isAfter(now) ? dayjs(now) : changed;
  return online ? `Online for ${at.from(now, true)}` : `Last online ${at.from(now)}`;
}

/** A date-time for cards, e.g. 03/14/2026, 4:05 pm. */
export function formatDateTime(iso: string): string {
  return dayjs(iso).format('MM/DD/YYYY, h:mm a');
}

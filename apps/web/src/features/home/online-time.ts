import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** 'Online for 2 hours' or 'Last online 3 days ago' from the last online change ('Never online' when it never was). */
export function onlineSinceText(online: boolean, lastOnlineChange: string | null, now: Date): string | null {
  if (!lastOnlineChange) return online ? null : 'Never online';
  const changed = dayjs(lastOnlineChange);
  if (!changed.isValid()) return null;
  // A clock slightly ahead on the server must not read "in a few seconds".
  const at = changed.isAfter(now) ? dayjs(now) : changed;
  return online ? `Online for ${at.from(now, true)}` : `Last online ${at.from(now)}`;
}

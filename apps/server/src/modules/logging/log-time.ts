/**
 * The time rules of logs and report events: which time a line is stored at, and where the
 * retention starts. Pure functions of the clock's `now`, so tests can move time.
 */

export const DAY_MS = 86_400_000;
/** A device time this far ahead of the server's is believed (clocks drift); anything later is not. */
export const MAX_DEVICE_AHEAD_MS = 5 * 60_000;

/** The oldest instant kept: `now` minus LOG_RETENTION_DAYS. */
export function retentionStart(now: Date, retentionDays: number): number {
  return now.getTime() - retentionDays * DAY_MS;
}

/**
 * When a line happened: the device's own time when it gives one and it is plausible (within the
 * retention, at most five minutes ahead), else the arrival time. A board without a real-time clock
 * that says 1970, or an exhibit PC set a year ahead, still has its lines stored, at arrival.
 */
export function lineTime(claimed: Date | undefined, now: Date, retentionDays: number): Date {
  if (!claimed) return now;
  const at = claimed.getTime();
  if (Number.isNaN(at) || at > now.getTime() + MAX_DEVICE_AHEAD_MS || at < retentionStart(now, retentionDays)) return now;
  return claimed;
}

/** The UTC day (YYYY-MM-DD) an instant falls in: the day partition that holds it. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

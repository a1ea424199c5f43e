import { HARDWARE_EVENT_TYPES, type Report } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { databaseErrorOf } from '../../db/errors.js';
import { AppError } from '../../lib/app-error.js';
import { logFilter } from './logging.service.js';
import { countHardwareEvents, countReportEvents, listBuckets, type Bucket, type BucketCount, type BucketSpec } from './reporting.repository.js';

/** The dataset of events whose value is null (Events by Value). */
export const NO_VALUE_LABEL = '(none)';

/** The hardware report's bucket: one local day. */
const DAY_SECONDS = 86_400;

/**
 * The zone as PostgreSQL should read it: the IANA name in its canonical spelling. A fixed offset
 * is refused (PostgreSQL reads "+01:00" as POSIX, the other way round).
 */
function canonicalZone(timeZone: string): string {
  if (/^[+-]/.test(timeZone)) throw new AppError('ValidationError', 'timeZone: must be a time zone such as Europe/Amsterdam');
  return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
}

/** Runs a report query; a zone PostgreSQL does not know is the caller's mistake (400 naming timeZone). */
async function withZone<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (databaseErrorOf(error)?.code === '22023') throw new AppError('ValidationError', 'timeZone: this time zone is not known to the database');
    throw error;
  }
}

/**
 * A chart from bucket starts and counts: one label per distinct starting instant (ISO), zero
 * counts included, and one dataset per label of the counts in `order` (else alphabetical).
 */
export function buildReport(buckets: Bucket[], counts: BucketCount[], order?: readonly string[]): Report {
  const labels: string[] = [];
  const indexOfWall = new Map<string, number>();
  for (const bucket of buckets) {
    const label = bucket.at.toISOString();
    if (labels[labels.length - 1] !== label) labels.push(label);
    indexOfWall.set(bucket.wall, labels.length - 1);
  }
  const data = new Map<string, number[]>();
  for (const count of counts) {
    const index = indexOfWall.get(count.wall);
    if (index === undefined) continue;
    const name = count.label ?? NO_VALUE_LABEL;
    let series = data.get(name);
    if (!series) data.set(name, (series = labels.map(() => 0)));
    series[index]! += count.n;
  }
  const rank = (name: string) => (order ? order.indexOf(name) : 0);
  const names = [...data.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return { labels, datasets: names.map((label) => ({ label, data: data.get(label)! })) };
}

/** The buckets of a range: the range checked against the retention (400 naming start), the zone made canonical. */
function bucketSpec(deps: AppDeps, query: { deviceId: string; start: number; end: number; seconds: number; timeZone: string }, source: 'exhibit' | 'hardware'): BucketSpec {
  const filter = logFilter(deps, { source, deviceId: query.deviceId, start: query.start, end: query.end });
  return { start: filter.start, end: filter.end, seconds: query.seconds, timeZone: canonicalZone(query.timeZone) };
}

/**
 * An exhibit's report events over the range, counted per bucket of `interval` seconds of the
 * viewer's local time: Total Events (one dataset per event name) or, with filter=value, Events by
 * Value (one dataset per value; none is NO_VALUE_LABEL).
 */
export async function getExhibitReport(
  deps: AppDeps,
  query: { exhibitId: string; start: number; end: number; interval: number; filter?: 'value'; timeZone: string },
): Promise<Report> {
  const spec = bucketSpec(deps, { ...query, deviceId: query.exhibitId, seconds: query.interval }, 'exhibit');
  return withZone(async () => {
    const [buckets, counts] = await Promise.all([
      listBuckets(deps.db, spec),
      countReportEvents(deps.db, { ...spec, exhibitId: query.exhibitId, by: query.filter === 'value' ? 'value' : 'name' }),
    ]);
    return buildReport(buckets, counts);
  });
}

/** A board's online, offline, reboot, button… entries (HARDWARE_EVENT_TYPES) per local day of the viewer. */
export async function getHardwareReport(deps: AppDeps, query: { hardwareId: string; start: number; end: number; timeZone: string }): Promise<Report> {
  const spec = bucketSpec(deps, { ...query, deviceId: query.hardwareId, seconds: DAY_SECONDS }, 'hardware');
  return withZone(async () => {
    const [buckets, counts] = await Promise.all([
      listBuckets(deps.db, spec),
      countHardwareEvents(deps.db, { ...spec, hardwareId: query.hardwareId, eventTypes: HARDWARE_EVENT_TYPES }),
    ]);
    return buildReport(buckets, counts, HARDWARE_EVENT_TYPES);
  });
}

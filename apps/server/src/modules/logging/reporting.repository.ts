import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

/**
 * The report queries: events counted per bucket of the viewer's local wall time, and the bucket
 * starts of a range. A bucket is date_bin(interval, at AT TIME ZONE zone, 2000-01-01): local wall
 * time, so a day bucket starts at local midnight whatever the offset, and the hour a clock repeats
 * in autumn falls in the bucket of its wall time (docs/architecture.md, "Logs and reports").
 */

/** Which buckets: the range, their width in seconds, the viewer's IANA zone. */
export type BucketSpec = { start: Date; end: Date; seconds: number; timeZone: string };

/** A bucket start: its local wall time (timestamp text, the key counts use) and the instant it starts. */
export type Bucket = { wall: string; at: Date };

/** One count: the bucket's wall time, what it counts (an event name, a value or an event type; null for no value), how many. */
export type BucketCount = { wall: string; label: string | null; n: number };

const ORIGIN = sql`timestamp '2000-01-01'`;

function stride(spec: BucketSpec): SQL {
  return sql`make_interval(secs => ${spec.seconds}::float8)`;
}

function wallOf(column: SQL, spec: BucketSpec): SQL {
  return sql`date_bin(${stride(spec)}, ${column} at time zone ${spec.timeZone}, ${ORIGIN})`;
}


/**
 * Every bucket start from the one holding `start` to the one holding `end`, oldest first. A wall
 * time the clock passes twice starts at its first instant; one it skips (spring forward) starts
 * when the clock reaches the bucket again (PostgreSQL reads a skipped time past the gap).
 */
export async function listBuckets(db: Db, spec: BucketSpec): Promise<Bucket[]> {
  const tz = spec.timeZone;
  const result = await db.execute(sql`
    select w::text as wall,
      coalesce(
        (select min(c) from (values (w at time zone ${tz}), ((w - interval '1 hour') at time zone ${tz} + interval '1 hour')) as v(c)
          where c at time zone ${tz} = w),
        w at time zone ${tz}
      ) as at
    from generate_series(
      ${wallOf(sql`${spec.start.toISOString()}::timestamptz`, spec)},
      ${wallOf(sql`${spec.end.toISOString()}::timestamptz`, spec)},
      ${stride(spec)}
    ) as w
    order by w`);
  return rowsOf<{ wall: string; at: Date | string }>(result).map((row) => ({ wall: row.wall, at: new Date(row.at) }));
}

/** An exhibit's report events in the range, counted per bucket and per event name (or per value). */
export async function countReportEvents(db: Db, query: BucketSpec & { exhibitId: string; by: 'name' | 'value' }): Promise<BucketCount[]> {
  const label = query.by === 'name' ? sql`name` : sql`value`;
  const result = await db.execute(sql`
    select ${wallOf(sql`at`, query)}::text as wall, ${label} as label, count(*)::int as n
    from report_events
    where device_id = ${query.exhibitId}::uuid and source = 'exhibit'
      and at >= ${query.start.toISOString()}::timestamptz and at <= ${query.end.toISOString()}::timestamptz
    group by 1, 2`);
  return rowsOf<BucketCount>(result).map((row) => ({ ...row, n: Number(row.n) }));
}

/** A board's log entries of these event types in the range, counted per bucket and per event type. */
export async function countHardwareEvents(db: Db, query: BucketSpec & { hardwareId: string; eventTypes: readonly string[] }): Promise<BucketCount[]> {
  const types = sql.join(
    query.eventTypes.map((type) => sql`${type}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select ${wallOf(sql`at`, query)}::text as wall, event_type as label, count(*)::int as n
    from log_entries
    where device_id = ${query.hardwareId}::uuid and source = 'hardware'
      and at >= ${query.start.toISOString()}::timestamptz and at <= ${query.end.toISOString()}::timestamptz
      and event_type in (${types})
    group by 1, 2`);
  return rowsOf<BucketCount>(result).map((row) => ({ ...row, n: Number(row.n) }));
}

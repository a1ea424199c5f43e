import { sql } from 'drizzle-orm';
import type { LogLevel } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { databaseErrorOf } from '../../db/errors.js';
import type { LogSource } from './ports.js';

/**
 * The writes of the log store (docs/architecture.md, "Logs and reports"): a whole batch in one
 * INSERT, and the day partitions a batch needs. The rows travel as one JSON parameter, an array
 * of arrays (no key names repeated in every row: a third fewer bytes than objects), expanded by
 * jsonb_array_elements (each row's fields then read by index, where json would scan its text for
 * each): one statement of any size, parsed once, the same on PostgreSQL and PGlite. Ids follow
 * the batch's order (WITH ORDINALITY, ORDER BY n).
 */

/** The partitioned tables of migration 0003_logs.sql. */
export type LogTable = 'log_entries' | 'report_events';

export type LogRow = { source: LogSource; deviceId: string; at: Date; level: LogLevel; eventType: string; message: string };
export type ReportRow = { source: LogSource; deviceId: string; at: Date; name: string; value: string | null };

/**
 * `at.toISOString()`, made once for the rows of a batch that share a millisecond (a busy board
 * stream logs dozens in each): formatting a date costs more than the rest of a row.
 */
function isoTimes(): (at: Date) => string {
  let ms = Number.NaN;
  let iso = '';
  return (at) => {
    const time = at.getTime();
    if (time !== ms) {
      ms = time;
      iso = at.toISOString();
    }
    return iso;
  };
}

/** Stores log lines in one statement. */
export async function insertLogRows(db: Db, rows: LogRow[]): Promise<void> {
  const iso = isoTimes();
  const json = JSON.stringify(rows.map((r) => [r.source, r.deviceId, iso(r.at), r.level, r.eventType, r.message]));
  await db.execute(sql`
    insert into log_entries (source, device_id, at, level, event_type, message)
    select x->>0, (x->>1)::uuid, (x->>2)::timestamptz, x->>3, x->>4, x->>5
    from jsonb_array_elements(${json}::jsonb) with ordinality as t(x, n)
    order by n`);
}

/** Stores report events in one statement. */
export async function insertReportRows(db: Db, rows: ReportRow[]): Promise<void> {
  const iso = isoTimes();
  const json = JSON.stringify(rows.map((r) => [r.source, r.deviceId, iso(r.at), r.name, r.value]));
  await db.execute(sql`
    insert into report_events (source, device_id, at, name, value)
    select x->>0, (x->>1)::uuid, (x->>2)::timestamptz, x->>3, x->>4
    from jsonb_array_elements(${json}::jsonb) with ordinality as t(x, n)
    order by n`);
}

/** Creates the day partition (a UTC day, YYYY-MM-DD) of a table when it is missing; safe on several nodes at once. */
export async function ensureDayPartition(db: Db, table: LogTable, day: string): Promise<void> {
  await db.execute(sql`select plinth_day_partition(${table}, ${day}::date)`);
}

/** True when a row had no partition to go to (its day was dropped meanwhile, or never made). */
export function isMissingPartition(error: unknown): boolean {
  const failure = databaseErrorOf(error);
  return failure?.code === '23514' && /no partition/i.test(failure.message);
}

import { sql } from 'drizzle-orm';
import type { LogLevel } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { databaseErrorOf } from '../../db/errors.js';
import type { LogSource } from './ports.js';

/**
 * The writes of the log store (docs/architecture.md, "Logs and reports"): a whole batch in one
 * INSERT, and the day partitions a batch needs. The rows travel as one JSON parameter, expanded
 * by json_to_recordset: one statement of any size, parsed once, the same on PostgreSQL and PGlite.
 */

/** The partitioned tables of migration 0003_logs.sql. */
export type LogTable = 'log_entries' | 'report_events';

export type LogRow = { source: LogSource; deviceId: string; at: Date; level: LogLevel; eventType: string; message: string };
export type ReportRow = { source: LogSource; deviceId: string; at: Date; name: string; value: string | null };

/** Stores log lines in one statement; ids follow the batch's order (ORDER BY n). */
export async function insertLogRows(db: Db, rows: LogRow[]): Promise<void> {
  const json = JSON.stringify(
    rows.map((r, n) => ({ n, source: r.source, device_id: r.deviceId, at: r.at.toISOString(), level: r.level, event_type: r.eventType, message: r.message })),
  );
  await db.execute(sql`
    insert into log_entries (source, device_id, at, level, event_type, message)
    select source, device_id, at, level, event_type, message
    from json_to_recordset(${json}::json) as x(n int, source text, device_id uuid, at timestamptz, level text, event_type text, message text)
    order by n`);
}

/** Stores report events in one statement. */
export async function insertReportRows(db: Db, rows: ReportRow[]): Promise<void> {
  const json = JSON.stringify(rows.map((r, n) => ({ n, source: r.source, device_id: r.deviceId, at: r.at.toISOString(), name: r.name, value: r.value })));
  await db.execute(sql`
    insert into report_events (source, device_id, at, name, value)
    select source, device_id, at, name, value
    from json_to_recordset(${json}::json) as x(n int, source text, device_id uuid, at timestamptz, name text, value text)
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

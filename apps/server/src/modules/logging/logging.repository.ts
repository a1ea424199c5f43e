import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { LogLevel } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { logEntries } from '../../db/schema.js';
import type { LogSource } from './ports.js';

/**
 * The reads of a device's logs: a page (newest first) with its count, and chunks oldest first by
 * keyset for the CSV. Each names the device and a range of `at`, so the (device_id, at, id) index
 * and partition pruning do the work.
 */

/** Which entries: one device, `at` within [start, end], of these levels (all when absent). */
export type LogFilter = { source: LogSource; deviceId: string; start: Date; end: Date; levels?: LogLevel[] };

/** One stored entry; the id as text (a bigint). */
export type LogEntryRow = { id: string; at: Date; level: LogLevel; eventType: string; message: string };

/** Where a CSV chunk continues: after this entry, `at` as PostgreSQL wrote it (every microsecond kept). */
export type LogCursor = { at: string; id: string };

const entryColumns = {
  id: sql<string>`${logEntries.id}::text`,
  at: logEntries.at,
  level: logEntries.level,
  eventType: logEntries.eventType,
  message: logEntries.message,
};

function matching(filter: LogFilter) {
  return and(
    eq(logEntries.deviceId, filter.deviceId),
    eq(logEntries.source, filter.source),
    gte(logEntries.at, filter.start),
    lte(logEntries.at, filter.end),
    filter.levels ? inArray(logEntries.level, filter.levels) : undefined,
  );
}

/** How many entries match. */
export async function countLogs(db: Db, filter: LogFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(logEntries).where(matching(filter));
  return Number(row?.n ?? 0);
}

/** One page of matching entries, newest first (at desc, id desc). */
export async function listLogPage(db: Db, filter: LogFilter, page: { offset: number; limit: number }): Promise<LogEntryRow[]> {
  return db
    .select(entryColumns)
    .from(logEntries)
    .where(matching(filter))
    .orderBy(desc(logEntries.at), desc(logEntries.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The next `limit` matching entries after the cursor (from the first when null), oldest first, each with its cursor. */
export async function listLogChunk(
  db: Db,
  filter: LogFilter,
  chunk: { after: LogCursor | null; limit: number },
): Promise<(LogEntryRow & { cursor: LogCursor })[]> {
  const { after } = chunk;
  const rows = await db
    .select({ ...entryColumns, atText: sql<string>`${logEntries.at}::text` })
    .from(logEntries)
    .where(and(matching(filter), after ? sql`(${logEntries.at}, ${logEntries.id}) > (${after.at}::timestamptz, ${after.id}::bigint)` : undefined))
    .orderBy(asc(logEntries.at), asc(logEntries.id))
    .limit(chunk.limit);
  return rows.map(({ atText, ...row }) => ({ ...row, cursor: { at: atText, id: row.id } }));
}

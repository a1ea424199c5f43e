import { LIVE_LOG_LEASE_MS, LOG_CSV_COLUMNS, type LiveLogLease, type LogLevel, type LogPage } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { deleteLease, upsertLease } from './live-log.repository.js';
import { retentionStart } from './log-time.js';
import { countLogs, listLogChunk, listLogPage, type LogCursor, type LogFilter } from './logging.repository.js';
import { csvLine, presentCsvRow, presentLogEntry } from './logging.presenter.js';
import type { LogSource } from './ports.js';

/** Entries read per query while a CSV streams: memory stays flat whatever the range holds. */
export const CSV_CHUNK_ROWS = 5000;

/** The latest instant PostgreSQL and an ISO string both take (a query may say up to year 275760). */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A device and a range of epoch milliseconds, as the queries give them. */
export type LogRange = { source: LogSource; deviceId: string; start: number; end: number };

/**
 * The range as a filter; 400 naming `start` when it starts before the retention (those days are
 * dropped: an answer would silently miss them).
 */
export function logFilter(deps: Pick<AppDeps, 'clock' | 'config'>, range: LogRange, levels?: LogLevel[]): LogFilter {
  const days = deps.config.LOG_RETENTION_DAYS;
  if (range.start < retentionStart(deps.clock.now(), days)) {
    throw new AppError('ValidationError', `start: must be within the last ${days} days; older logs are not kept`);
  }
  const { source, deviceId } = range;
  return { source, deviceId, start: new Date(Math.min(range.start, LATEST_MS)), end: new Date(Math.min(range.end, LATEST_MS)), levels };
}

/** A page of a device's logs, newest first, with the count of all that match. */
export async function getLogPage(
  deps: AppDeps,
  range: LogRange,
  page: { pageIdx: number; logsPerPage: number; levels?: LogLevel[] },
): Promise<LogPage> {
  const { pageIdx, logsPerPage } = page;
  const filter = logFilter(deps, range, page.levels);
  // No level chosen: nothing matches (and `in ()` is not SQL).
  const none = filter.levels?.length === 0;
  const [numLogs, rows] = none
    ? [0, []]
    : await Promise.all([countLogs(deps.db, filter), listLogPage(deps.db, filter, { offset: pageIdx * logsPerPage, limit: logsPerPage })]);
  if (pageIdx > 0 && pageIdx * logsPerPage >= numLogs) {
    throw new AppError('ValidationError', `pageIdx: page ${pageIdx} is past the last page (${numLogs} logs, ${logsPerPage} per page)`);
  }
  return { logs: rows.map(presentLogEntry), numLogs };
}

/**
 * A device's logs in the range, oldest first, as text to stream: a CSV (header datetime,data,
 * event_type) or the JSON answer `{ logs: [{datetime, data, event_type}] }`. Read by keyset over
 * (at, id) in chunks, each written before the next is read, so a million rows never sit in memory.
 */
export function exportLogs(deps: AppDeps, range: LogRange, format: 'csv' | 'json'): AsyncGenerator<string> {
  // Checked now, before the answer starts: a bad range is a 400, not a broken stream.
  return exportChunks(deps, logFilter(deps, range), format);
}

async function* exportChunks(deps: AppDeps, filter: LogFilter, format: 'csv' | 'json'): AsyncGenerator<string> {
  yield format === 'csv' ? csvLine(LOG_CSV_COLUMNS) : '{"logs":[';
  let after: LogCursor | null = null;
  let first = true;
  for (;;) {
    const rows = await listLogChunk(deps.db, filter, { after, limit: CSV_CHUNK_ROWS });
    if (!rows.length) break;
    const parts = rows.map((row) => {
      const csv = presentCsvRow(row);
      return format === 'csv' ? csvLine([csv.datetime, csv.data, csv.event_type]) : JSON.stringify(csv);
    });
    yield format === 'csv' ? parts.join('') : `${first ? '' : ','}${parts.join(',')}`;
    first = false;
    after = rows[rows.length - 1]!.cursor;
    if (rows.length < CSV_CHUNK_ROWS) break;
  }
  if (format === 'json') yield ']}';
}

/**
 * Turns the caller's live log of a device on (a lease until now + LIVE_LOG_LEASE_MS, renewed by
 * the console) or off. This node's recorder follows at once; the others at their next re-read.
 */
export async function setLiveLog(deps: AppDeps, lease: { source: LogSource; deviceId: string; userId: string; enabled: boolean }): Promise<LiveLogLease> {
  const { source, deviceId, userId } = lease;
  if (!lease.enabled) {
    await deleteLease(deps.db, { source, deviceId, userId });
    deps.logs.leaseChanged({ source, deviceId, userId, expiresAt: null });
    return { enabled: false, expiresAt: null };
  }
  const expiresAt = new Date(deps.clock.now().getTime() + LIVE_LOG_LEASE_MS);
  await upsertLease(deps.db, { source, deviceId, userId, expiresAt });
  deps.logs.leaseChanged({ source, deviceId, userId, expiresAt });
  return { enabled: true, expiresAt: expiresAt.toISOString() };
}

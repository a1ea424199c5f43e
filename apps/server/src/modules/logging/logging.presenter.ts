import type { LogCsvRow, LogEntry } from '@plinth/shared';
import type { LogEntryRow } from './logging.repository.js';

/** A stored entry as the log page answers it. */
export function presentLogEntry(row: LogEntryRow): LogEntry {
  return { id: row.id, level: row.level, message: row.message, eventType: row.eventType, createdAt: row.at.toISOString(), timestamp: row.at.getTime() };
}

/** A stored entry as a CSV row (spec 7.3: datetime, data, event_type). */
export function presentCsvRow(row: LogEntryRow): LogCsvRow {
  return { datetime: row.at.toISOString(), data: row.message, event_type: row.eventType };
}

/** A cell a spreadsheet would run as a formula when opened (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, a comma or a line break, quotes doubled;
 * a cell a spreadsheet would take for a formula (= + - @, tab, carriage return first) starts with
 * an apostrophe, so opening the file runs nothing.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record, CRLF-terminated (RFC 4180). */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The download's name: `exhibit-logs-<id>-<YYYYMMDD-HHmmss>.csv` (UTC), or `hardware-logs-…`. */
export function csvFileName(kind: 'exhibit' | 'hardware', deviceId: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${kind}-logs-${deviceId}-${stamp}.csv`;
}

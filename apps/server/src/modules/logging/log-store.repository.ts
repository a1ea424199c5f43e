import { sql } from 'drizzle-orm';
import type { LogLevel } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { databaseErrorOf } from '../../db/errors.js';
import type { LogSource } from './ports.js';

/**
 * The writes of the log store (docs/architecture.md, "Logs and reports"): a whole batch in one
 * INSERT, and the day partitions a batch needs. A batch travels packed (packBatch): each device
 * once, in a list of [source, id] pairs, and each row as a JSON array of its device's index, its
 * time in ms from the batch's first row, then its own fields, expanded by jsonb_array_elements
 * (each row's fields then read by index, where json would scan its text for each). A busy board's
 * rows repeated its 36-character id and a 24-character time in every row: packed, a prop change's
 * row is a quarter of the bytes to build, send and parse (26 where it was 111,
 * docs/performance.md). One statement of any size, parsed once, the same on PostgreSQL and
 * PGlite. Ids follow the batch's order (WITH ORDINALITY, ORDER BY n).
 */

/** The partitioned tables of migration 0003_logs.sql. */
export type LogTable = 'log_entries' | 'report_events';

/** A log line as the recorder makes it: what the consoles and the recorder's listeners get. */
export type LogRow = { source: LogSource; deviceId: string; at: Date; level: LogLevel; eventType: string; message: string };

/**
 * A log line as it waits for its batch (waitingLogRow): its time as ms since the epoch, where a
 * Date is an object of about 120 bytes, and its message already as the JSON text the INSERT sends,
 * a string of its own characters, where the message as built is a concatenation that keeps its
 * parts. About 145 bytes of heap against 250–340 for the line (docs/performance.md): a database that
 * lags holds up to LOG_BACKLOG_ROWS of them, and a batch's lines outlive the young generation.
 */
export type WaitingLogRow = { source: LogSource; deviceId: string; atMs: number; level: LogLevel; eventType: string; messageJson: string };
/** A report event as it waits for its batch (ms since the epoch, as a log line's). */
export type ReportRow = { source: LogSource; deviceId: string; atMs: number; name: string; value: string | null };

export function waitingLogRow(row: LogRow): WaitingLogRow {
  return { source: row.source, deviceId: row.deviceId, atMs: row.at.getTime(), level: row.level, eventType: row.eventType, messageJson: JSON.stringify(row.message) };
}

/** A batch as the INSERTs read it: `rows` is the JSON text of [device, ms after `base`, ...fields]. */
type PackedBatch = { devices: string; base: string; rows: string };

/** The number of each key, given by `add` the first time the key is seen (it files the key and answers its place). */
class Dictionary<K> {
  private readonly index = new Map<K, number>();

  of(key: K, add: () => number): number {
    let at = this.index.get(key);
    if (at === undefined) {
      at = add();
      this.index.set(key, at);
    }
    return at;
  }
}

/**
 * Packs a non-empty batch: each row's device as its index in `devices`, its time as ms after the
 * first row's (a device's own time may be earlier: negative), then `fields(row)`, JSON text.
 */
export function packBatch<R extends { source: LogSource; deviceId: string; atMs: number }>(rows: R[], fields: (row: R) => string): PackedBatch {
  const devices: [LogSource, string][] = [];
  const ids = { exhibit: new Dictionary<string>(), hardware: new Dictionary<string>() };
  const base = rows[0]!.atMs;
  let text = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const device = ids[row.source].of(row.deviceId, () => devices.push([row.source, row.deviceId]) - 1);
    // Concatenated, not an array joined: the text is flattened once, when the statement is sent.
    text += `${i ? ',' : ''}[${device},${row.atMs - base},${fields(row)}]`;
  }
  return { devices: JSON.stringify(devices), base: new Date(base).toISOString(), rows: `[${text}]` };
}

/** The packed row's [source, id] pair. */
const DEVICE = sql`(p.devices -> (x->>0)::int)`;

/** Stores log lines in one statement. */
export async function insertLogRows(db: Db, rows: WaitingLogRow[]): Promise<void> {
  // Level and event type, a handful of pairs in any batch, sent once each.
  const kinds: [LogLevel, string][] = [];
  const byLevel = new Map<LogLevel, Dictionary<string>>();
  const kindOf = (row: WaitingLogRow) => {
    let types = byLevel.get(row.level);
    if (!types) byLevel.set(row.level, (types = new Dictionary<string>()));
    return types.of(row.eventType, () => kinds.push([row.level, row.eventType]) - 1);
  };
  const packed = packBatch(rows, (row) => `${kindOf(row)},${row.messageJson}`);
  await db.execute(sql`
    insert into log_entries (source, device_id, at, level, event_type, message)
    select ${DEVICE}->>0, (${DEVICE}->>1)::uuid, p.base + (x->>1)::bigint * interval '1 millisecond',
      (p.kinds -> (x->>2)::int)->>0, (p.kinds -> (x->>2)::int)->>1, x->>3
    from (select ${packed.devices}::jsonb as devices, ${JSON.stringify(kinds)}::jsonb as kinds, ${packed.base}::timestamptz as base) as p,
      jsonb_array_elements(${packed.rows}::jsonb) with ordinality as t(x, n)
    order by n`);
}

/** Stores report events in one statement. */
export async function insertReportRows(db: Db, rows: ReportRow[]): Promise<void> {
  const packed = packBatch(rows, (row) => `${JSON.stringify(row.name)},${JSON.stringify(row.value)}`);
  await db.execute(sql`
    insert into report_events (source, device_id, at, name, value)
    select ${DEVICE}->>0, (${DEVICE}->>1)::uuid, p.base + (x->>1)::bigint * interval '1 millisecond', x->>2, x->>3
    from (select ${packed.devices}::jsonb as devices, ${packed.base}::timestamptz as base) as p,
      jsonb_array_elements(${packed.rows}::jsonb) with ordinality as t(x, n)
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

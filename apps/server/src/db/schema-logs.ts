import { bigserial, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The one store of what happened to exhibits and boards (issue "Logs and reports"). Both tables
 * are partitioned by day on `at` (migration 0003_logs.sql writes the PARTITION BY that drizzle
 * cannot declare); the log writer (`modules/logging/log-writer.ts`) makes the day partitions a batch
 * needs, and the retention job (`modules/logging/log-retention.ts`) drops whole days past
 * LOG_RETENTION_DAYS. No foreign key: a device's entries age out with the retention, and an insert
 * never waits on a lookup.
 */

/** What a log entry or report event is about. */
export const LOG_SOURCES = ['exhibit', 'hardware'] as const;

/** Log lines: what exhibits and boards logged, and the server's own record of what happened to them. */
export const logEntries = pgTable(
  'log_entries',
  {
    /** Orders entries of the same instant (newest first is `at desc, id desc`). */
    id: bigserial('id', { mode: 'number' }).notNull(),
    source: text('source', { enum: LOG_SOURCES }).notNull(),
    /** The exhibit's or the board's id. */
    deviceId: uuid('device_id').notNull(),
    /** When it happened: the device's time when it says so (and it is plausible), else arrival. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    level: text('level', { enum: ['debug', 'info', 'warn', 'error'] }).notNull(),
    /** The level for a device's own line; online, offline, opMode, control… for the server's record. */
    eventType: text('event_type').notNull(),
    /** Often JSON text. */
    message: text('message').notNull(),
  },
  (t) => [index('log_entries_device_idx').on(t.deviceId, t.at, t.id)],
);

/** Report events: an exhibit's `event(name, data)` calls, charted by the reports tab. */
export const reportEvents = pgTable(
  'report_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    source: text('source', { enum: LOG_SOURCES }).notNull(),
    deviceId: uuid('device_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    name: text('name').notNull(),
    /** The value Events by Value groups by: the data itself when it is text, a number or a boolean, else its `value` field. */
    value: text('value'),
  },
  (t) => [index('report_events_device_idx').on(t.deviceId, t.at)],
);

/**
 * Live-log leases (POST /logging/…/live): while one is unexpired, the device's new entries reach
 * the subscribed consoles on the socket. One row per device and user; every node reads the
 * unexpired ones, so any node's ingest knows.
 */
export const liveLogLeases = pgTable(
  'live_log_leases',
  {
    source: text('source', { enum: LOG_SOURCES }).notNull(),
    deviceId: uuid('device_id').notNull(),
    userId: uuid('user_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.deviceId, t.userId] }), index('live_log_leases_expires_idx').on(t.expiresAt)],
);

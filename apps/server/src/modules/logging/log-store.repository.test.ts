import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import { BOTH_DATABASES, type TestDatabase } from '../../test/databases.js';
import { utcDay } from './log-time.js';
import { ensureDayPartition, insertLogRows, insertReportRows, packBatch, waitingLogRow, type LogRow, type ReportRow } from './log-store.repository.js';

/** The packed batch INSERTs, on PostgreSQL and on the embedded PGlite: what is read back is what was given, in order. */

// node-postgres and PGlite both answer { rows }.
const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

describe('packBatch', () => {
  it('sends each device once and each time as ms after the first row (earlier ones negative)', () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const atMs = Date.parse('2026-11-28T10:00:00.000Z');
    const rows = [
      { source: 'hardware' as const, deviceId: a, atMs },
      { source: 'exhibit' as const, deviceId: a, atMs: atMs + 5 },
      { source: 'hardware' as const, deviceId: b, atMs: atMs - 1500 },
      { source: 'hardware' as const, deviceId: a, atMs },
    ];
    const packed = packBatch(rows, () => '"x"');
    expect(JSON.parse(packed.devices)).toEqual([
      ['hardware', a],
      ['exhibit', a],
      ['hardware', b],
    ]);
    expect(packed.base).toBe('2026-11-28T10:00:00.000Z');
    expect(JSON.parse(packed.rows)).toEqual([
      [0, 0, 'x'],
      [1, 5, 'x'],
      [2, -1500, 'x'],
      [0, 0, 'x'],
    ]);
  });
});

describe.each(BOTH_DATABASES)('the packed log and report INSERTs on %s', (_name, open) => {
  let database: TestDatabase;
  const now = Date.now();
  // Three UTC days, so the batch spans partitions; times to the ms.
  const days = [now - 2 * 86_400_000, now - 86_400_000, now];

  beforeAll(async () => {
    database = await open();
    for (const table of ['log_entries', 'report_events'] as const) {
      for (const day of days) await ensureDayPartition(database.db, table, utcDay(new Date(day)));
    }
  }, 120_000);
  afterAll(async () => {
    await database?.stop();
  });

  it('store every log line as given (device, time to the ms, level, type, text), ids in the batch’s order', async () => {
    const boards = [randomUUID(), randomUUID(), randomUUID()];
    const exhibit = randomUUID();
    const messages = ['relay1 state = 1', 'a "quoted" \\ back\\slash', 'tab\there, line\nbreak', 'ünïcödé → 展示 🎉', ''];
    const given: LogRow[] = Array.from({ length: 2500 }, (_, i) => ({
      source: i % 7 === 3 ? 'exhibit' : 'hardware',
      deviceId: i % 7 === 3 ? exhibit : boards[i % 3]!,
      // Out of order, across the three days.
      at: new Date(days[i % 3]! + ((i * 7919) % 86_000) - 43_000),
      level: (['debug', 'info', 'warn', 'error'] as const)[i % 4]!,
      eventType: i % 5 === 0 ? 'button' : 'prop',
      message: `${messages[i % messages.length]} #${i}`,
    }));
    await insertLogRows(database.db, given.map(waitingLogRow));
    const devices = [...boards, exhibit];
    const stored = await rowsOf<{ source: string; device_id: string; at_ms: string; level: string; event_type: string; message: string }>(
      database.db,
      sql`select source, device_id, (extract(epoch from at) * 1000)::bigint::text as at_ms, level, event_type, message
          from log_entries where device_id in (${sql.join(devices.map((d) => sql`${d}::uuid`), sql`, `)}) order by id`,
    );
    expect(stored.map((r) => ({ source: r.source, deviceId: r.device_id, at: Number(r.at_ms), level: r.level, eventType: r.event_type, message: r.message }))).toEqual(
      given.map((r) => ({ ...r, at: r.at.getTime() })),
    );
  });

  it('store every report event as given, a missing value as null', async () => {
    const exhibit = randomUUID();
    const given: ReportRow[] = Array.from({ length: 50 }, (_, i) => ({
      source: 'exhibit',
      deviceId: exhibit,
      atMs: days[i % 3]! - i,
      name: i % 2 ? 'visit' : 'quiz "answer"',
      value: i % 3 === 0 ? null : `kids ${i}`,
    }));
    await insertReportRows(database.db, given);
    const stored = await rowsOf<{ at_ms: string; name: string; value: string | null; source: string }>(
      database.db,
      sql`select source, (extract(epoch from at) * 1000)::bigint::text as at_ms, name, value from report_events where device_id = ${exhibit}::uuid order by id`,
    );
    expect(stored.map((r) => ({ source: r.source, at: Number(r.at_ms), name: r.name, value: r.value }))).toEqual(
      given.map((r) => ({ source: r.source, at: r.atMs, name: r.name, value: r.value })),
    );
  });
});

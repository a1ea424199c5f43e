import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logEntries, reportEvents } from '../../db/schema.js';
import { createExhibit, createWorld } from '../../test/factories.js';
import { createFakeClock, type FakeClock } from '../../test/fake-clock.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { listDayPartitions } from './log-partitions.repository.js';
import { runLogRetention } from './log-retention.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');
const DAY = 86_400_000;

let server: TestServer;
let clock: FakeClock;
let exhibitId: string;

beforeAll(async () => {
  clock = createFakeClock(NOW);
  server = await startTestServer({ LOG_RETENTION_DAYS: '90' }, { clock });
  const world = await createWorld(server);
  exhibitId = (await createExhibit(server.deps.db, world.siteA.id)).id;
});
afterAll(async () => {
  await server?.stop();
});

const partitionNames = async () => (await listDayPartitions(server.deps.db)).map((p) => p.name).sort();

/** The messages of the exhibit's stored lines, oldest first. */
async function storedMessages(): Promise<string[]> {
  await server.deps.logs.flush();
  const rows = await server.deps.db.select().from(logEntries).where(eq(logEntries.deviceId, exhibitId));
  return rows.sort((a, b) => a.at.getTime() - b.at.getTime()).map((row) => row.message);
}

describe('log retention', () => {
  it('has made today’s and tomorrow’s partitions at start', async () => {
    await server.deps.logs.flush();
    await runLogRetention(server.deps);
    const names = await partitionNames();
    for (const table of ['log_entries', 'report_events']) {
      expect(names).toContain(`${table}_p20261101`);
      expect(names).toContain(`${table}_p20261102`);
    }
  });

  it('drops whole days past LOG_RETENTION_DAYS, keeps the recent ones, and follows the clock', async () => {
    const line = (message: string, at: Date) => server.deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: 'info', eventType: 'info', message, at });
    line('89 days ago', new Date(NOW.getTime() - 89 * DAY));
    line('30 days ago', new Date(NOW.getTime() - 30 * DAY));
    line('now', NOW);
    server.deps.logs.event({ exhibitId, name: 'visit', data: 1, at: new Date(NOW.getTime() - 89 * DAY) });
    server.deps.logs.event({ exhibitId, name: 'visit', data: 2, at: NOW });
    expect(await storedMessages()).toEqual(['89 days ago', '30 days ago', 'now']);
    expect(await runLogRetention(server.deps)).toEqual([]);

    // Sixty days on, the retention starts 2 Oct 12:00: the day of 4 Aug goes whole, 2 Oct (half kept) stays.
    clock.advance(60 * DAY);
    const dropped = await runLogRetention(server.deps);
    expect(dropped!.map((p) => p.name).sort()).toEqual(['log_entries_p20260804', 'report_events_p20260804']);
    expect(await storedMessages()).toEqual(['30 days ago', 'now']);
    const events = await server.deps.db.select().from(reportEvents).where(eq(reportEvents.deviceId, exhibitId));
    expect(events.map((e) => e.value)).toEqual(['2']);
    const names = await partitionNames();
    expect(names).toContain('log_entries_p20261002');
    expect(names).toContain('log_entries_p20261231');
    expect(names).toContain('log_entries_p20270101');
    expect(names).toContain('report_events_p20270101');

    // A line written after the move lands in the new day; the old days are not made again.
    line('sixty days on', clock.now());
    expect(await storedMessages()).toEqual(['30 days ago', 'now', 'sixty days on']);
    expect(await partitionNames()).not.toContain('log_entries_p20260804');
  });

  it('stores a device time older than the retention at arrival', async () => {
    server.deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: 'warn', eventType: 'warn', message: 'clock of 1970', at: new Date(0) });
    await server.deps.logs.flush();
    const [row] = await server.deps.db.select().from(logEntries).where(eq(logEntries.message, 'clock of 1970'));
    expect(row!.at.toISOString()).toBe(clock.now().toISOString());
  });

  it('runs on one node at a time: another node holding the lock makes it a no-op', async () => {
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock(72110004)');
      expect(await runLogRetention(server.deps)).toBeNull();
      await other.query('select pg_advisory_unlock(72110004)');
      expect(await runLogRetention(server.deps)).toEqual([]);
    } finally {
      await other.end();
    }
  });
});

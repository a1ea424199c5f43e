import { asc, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hardwareConnectionHistory } from '../../db/schema.js';
import { createHardwareRow, hardwareRow } from '../../test/hardware-kit.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { setOnlineMany, type OnlineChange } from './hardware-state.repository.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

async function history(hardwareIds: string[]) {
  return server.deps.db
    .select({ hardwareId: hardwareConnectionHistory.hardwareId, online: hardwareConnectionHistory.online, reason: hardwareConnectionHistory.reason })
    .from(hardwareConnectionHistory)
    .where(inArray(hardwareConnectionHistory.hardwareId, hardwareIds))
    .orderBy(asc(hardwareConnectionHistory.at), asc(hardwareConnectionHistory.id));
}

async function boards(count: number): Promise<string[]> {
  const rows = await Promise.all(Array.from({ length: count }, () => createHardwareRow(server)));
  return rows.map((row) => row.hardwareId);
}

const change = (hardwareId: string, online: boolean, extra: Partial<OnlineChange> = {}): OnlineChange => ({
  hardwareId,
  online,
  reason: online ? 'connect' : 'will',
  at: new Date(),
  ...extra,
});

describe('setOnlineMany', () => {
  it('changes many boards in one call, answers which changed, and keeps one history row per change', async () => {
    const [a, b, c] = await boards(3);
    expect(await setOnlineMany(server.deps.db, [change(a!, true), change(b!, true)])).toEqual([true, true]);
    // c is already offline: only a and b change.
    expect(await setOnlineMany(server.deps.db, [change(a!, false, { reason: 'disconnect' }), change(b!, false), change(c!, false)])).toEqual([true, true, false]);
    expect((await hardwareRow(server, a!)).online).toBe(false);
    expect(await history([a!, b!, c!])).toEqual(
      expect.arrayContaining([
        { hardwareId: a, online: true, reason: 'connect' },
        { hardwareId: b, online: true, reason: 'connect' },
        { hardwareId: a, online: false, reason: 'disconnect' },
        { hardwareId: b, online: false, reason: 'will' },
      ]),
    );
    expect(await history([c!])).toEqual([]);
    expect(await history([a!, b!])).toHaveLength(4);
  });

  it('applies two changes of one board in their order', async () => {
    const [a] = await boards(1);
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms));
    const changes = [change(a!, true, { at: at(1) }), change(a!, false, { at: at(2) }), change(a!, true, { reason: 'message', at: at(3) })];
    expect(await setOnlineMany(server.deps.db, changes)).toEqual([true, true, true]);
    expect((await hardwareRow(server, a!)).online).toBe(true);
    expect((await history([a!])).map((row) => row.reason)).toEqual(['connect', 'will', 'message']);
  });

  it("ignores a status of an older connection than the newest seen, in the same batch as others", async () => {
    const [a, b] = await boards(2);
    expect(await setOnlineMany(server.deps.db, [change(a!, true, { epoch: 5 }), change(b!, true, { epoch: 1 })])).toEqual([true, true]);
    // a's will names connection 4, older than its live connection 5: ignored. b's names its own.
    expect(await setOnlineMany(server.deps.db, [change(a!, false, { epoch: 4 }), change(b!, false, { epoch: 1 })])).toEqual([false, true]);
    expect((await hardwareRow(server, a!)).online).toBe(true);
    expect((await hardwareRow(server, b!)).online).toBe(false);
    expect((await history([a!])).map((row) => row.online)).toEqual([true]);
  });

  it('changes a thousand boards going offline at once', async () => {
    const ids = await boards(1000);
    expect((await setOnlineMany(server.deps.db, ids.map((id) => change(id, true)))).every(Boolean)).toBe(true);
    expect((await setOnlineMany(server.deps.db, ids.map((id) => change(id, false)))).every(Boolean)).toBe(true);
    const rows = await history(ids);
    expect(rows.filter((row) => !row.online)).toHaveLength(1000);
  });

  it('runs its batch again when another transaction on the same boards ends it as a deadlock', async () => {
    const [low, high] = (await boards(2)).sort();
    // Another server's transaction: it holds the later board, then wants the earlier one, which
    // the batch (locking by id) holds while it waits for the later: a deadlock.
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('update hardware set updated_at = now() where id = $1', [high]);
      const batch = setOnlineMany(server.deps.db, [change(high!, true), change(low!, true)]);
      // The batch has taken the earlier board and waits for the later one.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const otherDone = other.query('update hardware set updated_at = now() where id = $1', [low]).then(
        () => other.query('commit'),
        async (error: unknown) => {
          await other.query('rollback');
          return error;
        },
      );
      expect(await batch).toEqual([true, true]);
      await otherDone;
    } finally {
      await other.end();
    }
    expect((await hardwareRow(server, low!)).online).toBe(true);
    expect((await hardwareRow(server, high!)).online).toBe(true);
    expect((await history([low!, high!])).filter((row) => row.online)).toHaveLength(2);
  });
});

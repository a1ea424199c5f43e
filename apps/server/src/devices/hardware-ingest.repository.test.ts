import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHardwareRow, hardwareRow } from '../test/hardware-kit.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { sql } from 'drizzle-orm';
import { BoardWrites } from './board-writes.js';
import { readPeripherals, writeHeartbeats, writePropValues, type HeartbeatWrite } from './hardware-ingest.repository.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const beat = (hardwareId: string, exhibitState: string, voltage: number): HeartbeatWrite => ({
  hardwareId,
  beat: { voltage, temp: 20, uptime: 1, exhibitState, exhibitIP: null },
  at: new Date(),
});

describe('the batched board writes', () => {
  it('store every other heartbeat of a batch when one row is refused by the database, and answer which', async () => {
    const [a, b, c] = await Promise.all([createHardwareRow(server), createHardwareRow(server), createHardwareRow(server)]);
    const failed = await writeHeartbeats(server.deps.db, [
      beat(a!.hardwareId, 'running', 4.1),
      // A row the gateway's validation would never let through: PostgreSQL refuses NUL in text.
      beat(b!.hardwareId, 'run\u0000ning', 4.2),
      beat(c!.hardwareId, 'idle', 4.3),
    ]);
    expect(failed.map((f) => f.hardwareId)).toEqual([b!.hardwareId]);
    expect(failed[0]!.error).toBeInstanceOf(Error);
    expect(await hardwareRow(server, a!.hardwareId)).toMatchObject({ voltage: 4.1, exhibitState: 'running' });
    expect(await hardwareRow(server, c!.hardwareId)).toMatchObject({ voltage: 4.3, exhibitState: 'idle' });
    expect((await hardwareRow(server, b!.hardwareId)).voltage).toBeNull();
  });

  it('answer no failures for a batch the database takes whole', async () => {
    const { hardwareId } = await createHardwareRow(server);
    expect(await writeHeartbeats(server.deps.db, [beat(hardwareId, 'running', 5)])).toEqual([]);
    expect(await writePropValues(server.deps.db, [{ hardwareId, peripheralId: 'relay1', propName: 'state', value: 1 }])).toEqual([]);
  });

  it("run a batch again when another server's transaction on the same boards ends it as a deadlock", async () => {
    const [a, b] = await Promise.all([createHardwareRow(server), createHardwareRow(server)]);
    const ids = [a!.hardwareId, b!.hardwareId];
    // The batch takes its rows in some order; the other transaction takes them in one order, then
    // the other: with one of the two orders the batch holds a row the other wants while it waits
    // for the other's, and PostgreSQL ends one of them.
    for (const [first, second] of [ids, [...ids].reverse()]) {
      const other = new pg.Client({ connectionString: server.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('update hardware set exhibit_state = $2 where id = $1', [first, 'other']);
        const batch = writeHeartbeats(server.deps.db, [beat(second!, 'batch', 4), beat(first!, 'batch', 4)]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const otherDone = other.query('update hardware set exhibit_state = $2 where id = $1', [second, 'other']).then(
          () => other.query('commit'),
          async (error: unknown) => {
            await other.query('rollback');
            return error;
          },
        );
        expect(await batch).toEqual([]);
        await otherDone;
      } finally {
        await other.end();
      }
      // Whichever transaction came second, the batch's heartbeats are stored.
      for (const id of ids) expect(await hardwareRow(server, id)).toMatchObject({ voltage: 4 });
    }
  });
});

describe('BoardWrites', () => {
  it('stores the newest value of each prop of each board, several props of a board included', async () => {
    const [a, b] = await Promise.all([createHardwareRow(server), createHardwareRow(server)]);
    const peripherals = [{ id: 'p1', name: 'Panel', props: [{ name: 'x', type: 'int', value: 0 }, { name: 'y', type: 'int', value: 0 }] }];
    for (const board of [a, b]) {
      await server.deps.db.execute(sql`update hardware set peripherals = ${JSON.stringify(peripherals)}::jsonb where id = ${board!.hardwareId}`);
    }
    // A flush time long enough that only flush() stores.
    const writes = new BoardWrites(server.deps, 60_000);
    const prop = (hardwareId: string, propName: string, value: number) => writes.prop({ hardwareId, peripheralId: 'p1', propName, value });
    prop(a!.hardwareId, 'x', 1);
    prop(b!.hardwareId, 'x', 7);
    prop(a!.hardwareId, 'y', 5);
    prop(a!.hardwareId, 'x', 2);
    prop(a!.hardwareId, 'x', 3);
    await writes.flush();
    const values = async (hardwareId: string) => (await readPeripherals(server.deps.db, hardwareId))[0]!.props.map((p) => [p.name, p.value]);
    expect(await values(a!.hardwareId)).toEqual([
      ['x', 3],
      ['y', 5],
    ]);
    expect(await values(b!.hardwareId)).toEqual([
      ['x', 7],
      ['y', 0],
    ]);
    // What changes after a flush is the next batch's.
    prop(a!.hardwareId, 'y', 6);
    await writes.flush();
    expect(await values(a!.hardwareId)).toEqual([
      ['x', 3],
      ['y', 6],
    ]);
    await writes.finish(server.deps.logger, 1000);
  });
});

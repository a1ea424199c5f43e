import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHardwareRow, hardwareRow } from '../test/hardware-kit.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { writeHeartbeats, writePropValues, type HeartbeatWrite } from './hardware-ingest.repository.js';

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

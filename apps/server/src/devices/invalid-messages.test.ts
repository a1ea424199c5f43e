import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.js';
import { systemClock } from '../lib/clock.js';
import { createHardwareRow, hardwareRow, waitUntil } from '../test/hardware-kit.js';
import { captureLogs } from '../test/log-capture.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { createInvalidMessages } from './invalid-messages.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

/**
 * The server's own database, cut while `cut` is set: a statement then waits for `restore` and
 * fails as a lost connection does (what node-postgres raises when PostgreSQL goes away).
 */
function cuttableDb(db: Db) {
  let cut: Promise<void> | null = null;
  let restore = () => {};
  let statementsCut = 0;
  const wrapped = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'execute') return Reflect.get(target, property, receiver) as unknown;
      return async (...args: Parameters<Db['execute']>) => {
        if (cut) {
          statementsCut += 1;
          await cut;
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        }
        return target.execute(...args);
      };
    },
  });
  return {
    db: wrapped,
    cut: () => (cut = new Promise<void>((resolve) => (restore = resolve))),
    restore: () => {
      cut = null;
      restore();
    },
    statementsCut: () => statementsCut,
  };
}

describe('the invalid-message counts', () => {
  it('add the messages counted while a failed batch was being stored to that batch’s counts, losing none', async () => {
    const { hardwareId } = await createHardwareRow(server);
    const database = cuttableDb(server.deps.db);
    const logs = captureLogs('info');
    const invalid = createInvalidMessages(
      { db: database.db, logger: logs.logger, clock: systemClock, metrics: server.deps.metrics },
      { flushMs: 60_000 },
    );
    const record = (times: number) => {
      for (let i = 0; i < times; i++) invalid.record(hardwareId, { channel: 'prop', reason: 'value: expected a number' });
    };

    record(3);
    database.cut();
    const flushed = invalid.flush();
    await waitUntil(() => database.statementsCut() > 0, 'the batch of 3 to be on its way');
    // While that batch is being stored (and fails), the board sends two more.
    record(2);
    database.restore();
    await flushed;
    await waitUntil(() => logs.lines.some((line) => /invalid-message counts held/.test(String(line.msg))), 'the failure to be reported');

    await invalid.finish(5_000);
    expect((await hardwareRow(server, hardwareId)).invalidMessages).toBe(5);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../lib/clock.js';
import { startServerBehindProxy, type CuttableProxy } from '../test/cuttable-proxy.js';
import { createHardwareRow, hardwareRow, waitUntil } from '../test/hardware-kit.js';
import { captureLogs } from '../test/log-capture.js';
import type { TestServer } from '../test/test-server.js';
import { createInvalidMessages } from './invalid-messages.js';

// The server's PostgreSQL is reached through a proxy whose link the test cuts: a statement then
// waits for a new connection until the connect timeout (1.5 s) ends it, as when the network is cut.
let proxy: CuttableProxy;
let server: TestServer;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, proxy, stop } = await startServerBehindProxy());
}, 60_000);

afterAll(async () => {
  await stop?.();
});

describe('the invalid-message counts', () => {
  it('add the messages counted while a failed batch was being stored to that batch’s counts, losing none', { timeout: 60_000 }, async () => {
    const { hardwareId } = await createHardwareRow(server);
    const logs = captureLogs('info');
    const invalid = createInvalidMessages(
      { db: server.deps.db, logger: logs.logger, clock: systemClock, metrics: server.deps.metrics },
      { flushMs: 60_000 },
    );
    const record = (times: number) => {
      for (let i = 0; i < times; i++) invalid.record(hardwareId, { channel: 'prop', reason: 'value: expected a number' });
    };

    record(3);
    proxy.cut('blackhole');
    // The pooled connections died with the link, and a statement sent on one fails at once.
    // Throwaway statements use them up: once one opens a new connection, none is left.
    while (proxy.held() === 0) await server.deps.db.execute(sql`select 1`).catch(() => undefined);

    const flushed = invalid.flush();
    await waitUntil(() => proxy.held() > 1, 'the batch of 3 to wait for a connection');
    // While that batch is on its way (and fails), the board sends two more.
    record(2);
    await flushed;
    expect(logs.lines.some((line) => /invalid-message counts held/.test(String(line.msg)))).toBe(true);
    proxy.mend();

    await invalid.finish(10_000);
    expect((await hardwareRow(server, hardwareId)).invalidMessages).toBe(5);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerBehindProxy, type CuttableProxy } from './test/cuttable-proxy.js';
import { openExhibitSocket } from './test/exhibit-socket.js';
import { createExhibit, createOrganization, createSite, eventsDuring } from './test/factories.js';
import { waitUntil } from './test/hardware-kit.js';
import { queryRows } from './test/postgres.js';
import type { TestServer } from './test/test-server.js';
import type { TestClient } from './test/test-client.js';

/**
 * PostgreSQL lost and back (issue 13): while the database cannot be reached the API answers 503
 * with a clear message within its connect timeout (never a request hanging), and once it is back
 * the same server answers again without a person.
 */
let proxy: CuttableProxy;
let server: TestServer;
let admin: TestClient;
let databaseUrl: string;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, proxy, databaseUrl, stop } = await startServerBehindProxy());
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
}, 60_000);

afterAll(async () => {
  await stop?.();
});

async function timed(call: () => Promise<{ status: number; body: { code?: string; message?: string } }>) {
  const started = Date.now();
  const res = await call();
  return { ...res, ms: Date.now() - started };
}

describe('the database lost and back', () => {
  for (const how of ['refuse', 'blackhole'] as const) {
    it(`answers 503 with a clear message while PostgreSQL is unreachable (${how}), then recovers by itself`, { timeout: 60_000 }, async () => {
      const durations: number[] = [];
      expect((await admin.get('/org-management/organization')).status).toBe(200);
      proxy.cut(how);
      // The first calls may meet pooled connections that died with the link; the later ones wait
      // for a new connection, which the connect timeout (1.5 s here) ends.
      for (let i = 0; i < 3; i += 1) {
        const down = await timed(() => admin.get('/org-management/organization'));
        expect(down.status).toBe(503);
        expect(down.body).toMatchObject({ code: 'ServiceUnavailable', message: 'The database cannot be reached right now. Try again in a moment.' });
        // Never a hanging request (room left for a busy machine).
        expect(down.ms).toBeLessThan(10_000);
        durations.push(down.ms);
      }
      proxy.mend();
      let back = 0;
      for (let i = 0; i < 100 && back !== 200; i += 1) {
        back = (await admin.get('/org-management/organization')).status;
        if (back !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(back).toBe(200);
      // A cut network makes a new connection wait for the whole timeout; a stopped database refuses at once.
      if (how === 'blackhole') expect(Math.max(...durations)).toBeGreaterThanOrEqual(1400);
    });
  }

  it("publishes an exhibit's first status while PostgreSQL is away, and stores it once it is back", { timeout: 60_000 }, async () => {
    const organization = await createOrganization(server.deps.db);
    const exhibitId = (await createExhibit(server.deps.db, (await createSite(server.deps.db, organization.id)).id)).id;
    const exhibit = await openExhibitSocket(server, admin, exhibitId);
    try {
      exhibit.send({ type: 'manifest', requestId: '1', manifest: { statuses: [{ id: 'visitors', type: 'Integer' }] } });
      await exhibit.waitFor((m) => m.type === 'exhibit.synced');
      proxy.cut('refuse');
      // The status types were read with the manifest: the value needs no database to be published.
      const events = await eventsDuring(server, 'exhibit', exhibitId, async () => {
        exhibit.send({ type: 'status', id: 'visitors', value: 41 });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      });
      expect(events).toContainEqual({ type: 'exhibit.statusChanged', exhibitId, statusId: 'visitors', value: 41 });
      proxy.mend();
      // The batched write was held through the outage and stored once the database is back.
      const stored = async () => (await queryRows(databaseUrl)<{ value: number }>('select value from exhibit_statuses where exhibit_id = $1', [exhibitId]))[0]?.value;
      await waitUntil(async () => (await stored()) === 41, 'the status stored after the outage', 20_000);
    } finally {
      proxy.mend();
      exhibit.close();
    }
  });
});

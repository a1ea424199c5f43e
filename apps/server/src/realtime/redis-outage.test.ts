import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCuttableProxy } from '../test/cuttable-proxy.js';
import { SocketClient } from '../test/socket-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import type { TestClient } from '../test/test-client.js';
import { createExhibit, createOrganization, createSite } from '../test/factories.js';

/**
 * Redis lost and back (issue 13): a node whose link to Redis is cut tells its consoles
 * (`realtime.status` false), and once the link is back tells them again (true) and delivers
 * events from the other nodes as before, without a person.
 */
const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
let cut: TestServer;
let other: TestServer;
let admin: TestClient;
let exhibitId: string;

beforeAll(async () => {
  proxy = await startCuttableProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) });
  const through = new URL(REDIS.toString());
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  cut = await startTestServer({ REDIS_URL: through.toString() });
  other = await startTestServer({ REDIS_URL: REDIS.toString() }, { databaseUrl: cut.databaseUrl });
  admin = (await cut.signUp({ isPlatformAdmin: true })).client;
  const organization = await createOrganization(cut.deps.db);
  exhibitId = (await createExhibit(cut.deps.db, (await createSite(cut.deps.db, organization.id)).id)).id;
}, 60_000);

afterAll(async () => {
  proxy?.mend();
  await other?.stop();
  await cut?.stop();
  await proxy?.close();
});

describe('Redis lost and back', () => {
  it("tells the node's consoles, and events from other nodes flow again once it is back", { timeout: 60_000 }, async () => {
    const socket = await SocketClient.open(cut.url, { cookie: admin.cookieHeader });
    await socket.nextOfType('handshake');
    socket.send({ type: 'subscribe', exhibitIds: [exhibitId] });
    await socket.nextOfType('subscribed');

    proxy.cut('refuse');
    expect(await socket.nextOfType('realtime.status', 10_000)).toEqual({ type: 'realtime.status', live: false });
    expect(cut.deps.hub.isLive()).toBe(false);
    // A console that connects meanwhile is told at once.
    const late = await SocketClient.open(cut.url, { cookie: admin.cookieHeader });
    await late.nextOfType('handshake');
    expect(await late.nextOfType('realtime.status')).toEqual({ type: 'realtime.status', live: false });

    proxy.mend();
    expect(await socket.nextOfType('realtime.status', 20_000)).toEqual({ type: 'realtime.status', live: true });
    // The other node's events reach this node's console again (its subscription came back by itself).
    const event = { type: 'exhibit.presenceChanged', exhibitId, online: true, lastOnlineChange: new Date().toISOString() } as const;
    let delivered = false;
    for (let i = 0; i < 50 && !delivered; i += 1) {
      other.deps.hub.publish('exhibit', exhibitId, event);
      delivered = await socket.nextOfType('exhibit.presenceChanged', 200).then(
        () => true,
        () => false,
      );
    }
    expect(delivered).toBe(true);
    socket.ws.close();
    late.ws.close();
  });
});

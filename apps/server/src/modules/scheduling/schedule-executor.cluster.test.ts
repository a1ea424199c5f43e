import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExhibit, createWorld } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { controlsFired, dueOccurrences, scheduleTestManifest, sdkConnection, stepsDone, stepsDoneTwice, type SdkConnection } from '../../test/schedule-kit.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { insertScheduledEvents, listEventsOfExhibits } from './scheduling.repository.js';

/**
 * Two server instances of one deployment (one PostgreSQL database, one Redis) polling the same
 * table: 200 occurrences due in the same second run exactly once between them, and each control
 * reaches its SDK once, whichever node the SDK is connected to.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const EXHIBITS = 20;
const OCCURRENCES = 200;
const MANIFEST = scheduleTestManifest(OCCURRENCES / EXHIBITS);
const env = { REDIS_URL, SCHEDULER_POLL_MS: '250' };

let a: TestServer;
let b: TestServer;
const sdks: SdkConnection[] = [];

beforeAll(async () => {
  a = await startTestServer(env);
  b = await startTestServer(env, { databaseUrl: a.databaseUrl });
});
afterAll(async () => {
  for (const sdk of sdks) sdk.close();
  // B shares A's database; A drops it.
  await b?.stop();
  await a?.stop();
});

describe('the scheduler on two nodes', () => {
  it('runs 200 occurrences due in the same second exactly once, and each control reaches its SDK once', { timeout: 180_000 }, async () => {
    const admin = (await a.signUp({ isPlatformAdmin: true })).client;
    const siteId = (await createWorld(a)).siteA.id;
    const exhibitIds: string[] = [];
    for (let i = 0; i < EXHIBITS; i++) {
      const exhibitId = (await createExhibit(a.deps.db, siteId)).id;
      const token = (await admin.post('/auth/exhibit', { name: 'sdk', exhibitId })).body.token as string;
      const sdk = sdkConnection({ exhibitId, token, manifest: MANIFEST });
      sdks.push(sdk);
      // Half the SDKs on each node: a control run by one node reaches an SDK on the other through Redis.
      await sdk.connect(i % 2 ? b.url : a.url);
      exhibitIds.push(exhibitId);
    }

    // All due in the same second, a moment from now so that both nodes' polls find them.
    const at = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
    await insertScheduledEvents(a.deps.db, dueOccurrences(exhibitIds, { count: OCCURRENCES, at }));

    // Which nodes held leases while the run was under way (leases are cleared when a run ends).
    const owners = new Set<string>();
    const rows = await waitUntil(async () => {
      const now = await listEventsOfExhibits(a.deps.db, exhibitIds);
      for (const row of now) if (row.leaseOwner) owners.add(row.leaseOwner);
      return now.every((r) => r.state === 'completed') ? now : undefined;
    }, 'every occurrence completed', 120_000);

    expect(rows).toHaveLength(OCCURRENCES);
    for (const row of rows) {
      expect(stepsDoneTwice(row.steps), row.name).toEqual([]);
      expect(stepsDone(row.steps), row.name).toEqual([0, 1]);
      expect(row.steps.filter((s) => s.phase === 'started').map((s) => s.step), row.name).toEqual([0, 1]);
      expect(row.ranAt, row.name).not.toBeNull();
    }
    // Every control of every exhibit reached its SDK, once.
    await waitUntil(() => sdks.every((sdk) => controlsFired(sdk.messages).size === OCCURRENCES / EXHIBITS), 'every control at its SDK', 30_000);
    for (const sdk of sdks) {
      const fired = controlsFired(sdk.messages);
      expect([...fired.values()].every((n) => n === 1), `${sdk.exhibitId}: ${JSON.stringify([...fired])}`).toBe(true);
    }
    // Both nodes usually take part; which took what is not the product's promise, exactly once is.
    const nodes = new Set([a.deps.scheduler!.node, b.deps.scheduler!.node]);
    expect([...owners].every((o) => nodes.has(o))).toBe(true);
    console.info(`schedule-executor.cluster: lease owners seen during the run: ${owners.size} of 2 nodes`);
  });
});

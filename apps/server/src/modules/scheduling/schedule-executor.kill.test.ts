import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { newSecretKeyText } from '../../lib/secret-box.js';
import { createExhibit, createWorld } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { controlsFired, dueOccurrences, scheduleTestManifest, sdkConnection, stepsDone, stepsDoneTwice, type SdkConnection } from '../../test/schedule-kit.js';
import { startServerProcess, type ServerProcess } from '../../test/server-process.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../test/test-server.js';
import { insertScheduledEvents, listEventsOfExhibits } from './scheduling.repository.js';

/**
 * A node killed (SIGKILL) in the middle of a run: its leases expire, a fresh node takes the rows
 * over and finishes them from their recorded steps. Nothing is lost, no step is done twice, and no
 * control reaches an exhibit twice (one under way when the node died is reported, not fired again).
 */
const EXHIBITS = 20;
const OCCURRENCES = 200;
const MANIFEST = scheduleTestManifest(OCCURRENCES / EXHIBITS);
const SECRET_KEY = newSecretKeyText();
const SCHEDULER = { SCHEDULER_POLL_MS: '250', SCHEDULER_LEASE_MS: '2000' };

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let child: ServerProcess | undefined;
let fresh: TestServer | undefined;
let direct: Database | undefined;
const sdks: SdkConnection[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-kill-'));
});
afterAll(async () => {
  for (const sdk of sdks) sdk.close();
  await child?.kill('SIGKILL');
  await fresh?.stop();
  await direct?.close();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An organization, 20 exhibits and a token each, made through a server that is stopped again (it must not run anything). */
async function prepareExhibits(): Promise<{ exhibitId: string; token: string }[]> {
  const setup = await startTestServer({ SECRET_KEY }, { databaseUrl: database.url });
  try {
    const admin = (await setup.signUp({ isPlatformAdmin: true })).client;
    const siteId = (await createWorld(setup)).siteA.id;
    const exhibits: { exhibitId: string; token: string }[] = [];
    for (let i = 0; i < EXHIBITS; i++) {
      const exhibitId = (await createExhibit(setup.deps.db, siteId)).id;
      exhibits.push({ exhibitId, token: (await admin.post('/auth/exhibit', { name: 'sdk', exhibitId })).body.token as string });
    }
    return exhibits;
  } finally {
    await setup.stop();
  }
}

describe('a node killed in the middle of a run', () => {
  it('leaves its occurrences to a fresh node, which finishes them: none lost, no step twice, no control twice', { timeout: 300_000 }, async () => {
    const exhibits = await prepareExhibits();
    const exhibitIds = exhibits.map((e) => e.exhibitId);
    child = await startServerProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, SECRET_KEY, LOG_LEVEL: 'info', ...SCHEDULER });
    for (const exhibit of exhibits) {
      const sdk = sdkConnection({ ...exhibit, manifest: MANIFEST });
      sdks.push(sdk);
      await sdk.connect(child.url);
    }
    direct = await openDatabase({ databaseUrl: database.url, dataDir, holder: 'test' });
    const db = direct.db;
    await insertScheduledEvents(db, dueOccurrences(exhibitIds, { count: OCCURRENCES, at: new Date(Date.now() + 1000) }));

    // Killed once some, but not all, occurrences are done.
    const completedAtKill = await waitUntil(async () => {
      const n = (await listEventsOfExhibits(db, exhibitIds)).filter((r) => r.state === 'completed').length;
      return n >= 5 ? n : undefined;
    }, 'the run under way on the child', 60_000);
    await child.kill('SIGKILL');
    const atKill = await listEventsOfExhibits(db, exhibitIds);
    const doneAtKill = atKill.filter((r) => r.state === 'completed').length;
    expect(doneAtKill).toBeGreaterThanOrEqual(completedAtKill);
    expect(doneAtKill, 'the child finished everything before it was killed: nothing was tested').toBeLessThan(OCCURRENCES);
    const midRun = atKill.filter((r) => r.state === 'running').length;
    // Rows with a change made (or under way) but not recorded done: the ones resumed from their steps.
    const inFlight = atKill.filter((r) => r.steps.some((s) => s.phase === 'started' && !r.steps.some((d) => d.phase === 'done' && d.step === s.step))).length;

    fresh = await startTestServer({ SECRET_KEY, ...SCHEDULER }, { databaseUrl: database.url });
    for (const sdk of sdks) await sdk.connect(fresh.url);
    const rows = await waitUntil(async () => {
      const now = await listEventsOfExhibits(db, exhibitIds);
      return now.every((r) => r.state === 'completed' || r.state === 'failed') ? now : undefined;
    }, 'every occurrence finished by the fresh node', 180_000);

    expect(rows).toHaveLength(OCCURRENCES);
    let notConfirmed = 0;
    for (const row of rows) {
      expect(stepsDoneTwice(row.steps), row.name).toEqual([]);
      expect(stepsDone(row.steps), row.name).toEqual([0, 1]);
      const outcomes = row.steps.filter((s) => s.phase === 'done').map((s) => s.outcome ?? '');
      // Failed only where nothing could be made (the exhibit was offline while the node restarted).
      if (row.state === 'failed') expect(outcomes.every((o) => o.includes('failed')), `${row.name}: ${outcomes.join('; ')}`).toBe(true);
      if (outcomes.some((o) => o.includes('not confirmed'))) notConfirmed += 1;
    }
    // No control reached its SDK twice, across the child's and the fresh node's connections.
    for (const sdk of sdks) {
      const fired = controlsFired(sdk.messages);
      expect([...fired.values()].every((n) => n === 1), `${sdk.exhibitId}: ${JSON.stringify([...fired])}`).toBe(true);
    }
    // Reported, not asserted: a control the server counted delivered while the SDK was between nodes.
    const received = new Set(sdks.flatMap((sdk) => [...controlsFired(sdk.messages).keys()].map((c) => `${sdk.exhibitId}/${c}`)));
    const unseen = rows.filter((r) => r.steps.some((s) => s.outcome?.endsWith(': delivered')) && !received.has(`${r.exhibitId}/${r.changes.controls[0]!.controlId}`)).length;
    console.info(
      `schedule-executor.kill: ${doneAtKill} of ${OCCURRENCES} completed, ${midRun} running and ${inFlight} with a step under way when killed; ` +
        `${notConfirmed} controls reported not confirmed; ${rows.filter((r) => r.state === 'failed').length} failed; ${unseen} counted delivered that no SDK received`,
    );
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server.js';
import { pgliteTestConfig } from '../../test/databases.js';
import { createExhibit, createOrganization, createSite } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { scheduleTestManifest, sdkConnection, type SdkConnection } from '../../test/schedule-kit.js';
import { TestClient } from '../../test/test-client.js';
import { createUser } from '../auth/users.service.js';
import { findScheduledEvent } from './scheduling.repository.js';

/** The executor on the embedded database (PGlite in DATA_DIR): it claims a due event (FOR UPDATE SKIP LOCKED) and runs it. */

let dataDir: string;
let server: RunningServer | undefined;
let sdk: SdkConnection | undefined;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pglite-schedule-'));
});
afterAll(async () => {
  sdk?.close();
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the scheduler on the embedded database', () => {
  it('claims a due event and runs it: the setting and the control reach the SDK, the steps are recorded', { timeout: 120_000 }, async () => {
    server = await startServer(pgliteTestConfig(dataDir, { SCHEDULER_POLL_MS: '250' }));
    expect(server.deps.database.kind).toBe('pglite');
    const db = server.deps.db;
    await createUser(server.deps, { email: 'owner@example.com', password: 'Own3rPassword', isPlatformAdmin: true });
    const admin = new TestClient(server.url);
    expect((await admin.post('/auth/user/login', { email: 'owner@example.com', password: 'Own3rPassword' })).status).toBe(200);
    const site = await createSite(db, (await createOrganization(db)).id);
    const exhibitId = (await createExhibit(db, site.id)).id;
    const token = (await admin.post('/auth/exhibit', { name: 'sdk', exhibitId })).body.token as string;
    sdk = sdkConnection({ exhibitId, token, manifest: scheduleTestManifest(1) });
    await sdk.connect(server.url);

    const startDate = new Date(Date.now() + 1500).toISOString();
    const created = await admin.post(`/exhibit-management/scheduling/${exhibitId}`, {
      manifest: { settings: [{ settingId: 'kiosk_name', value: 'Embedded' }], controls: [{ controlId: 'c0' }], strapiContent: [] },
      eventName: 'On PGlite',
      startDate,
      endDate: null,
      recurring: false,
    });
    expect(created.status).toBe(200);
    const id = created.body.schedules[0].id as string;

    const row = await waitUntil(async () => {
      const now = await findScheduledEvent(db, id);
      return now?.state === 'completed' ? now : undefined;
    }, 'the event run', 60_000);
    expect(row.leaseOwner).toBeNull();
    expect(row.steps.map((s) => [s.step, s.phase])).toEqual([
      [0, 'started'],
      [0, 'done'],
      [1, 'started'],
      [1, 'done'],
    ]);
    expect(row.ranAt!.getTime()).toBeGreaterThanOrEqual(Date.parse(startDate));
    const messages = sdk.messages;
    await waitUntil(() => messages.some((m) => m.type === 'control.fired' && m.controlId === 'c0'), 'the control at the SDK', 30_000);
    expect(messages.some((m) => m.type === 'setting.changed' && m.settingId === 'kiosk_name' && m.value === 'Embedded')).toBe(true);
    const listed = await admin.get(`/exhibit-management/scheduling/${exhibitId}`);
    expect(listed.body.schedules[0]).toMatchObject({ state: 'completed', completed: true, outcome: ['Setting "kiosk_name": "Embedded"', 'Control "c0": delivered'] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageSchema } from '@plinth/shared';
import { createOrganization, signUpWith } from '../../test/factories.js';
import { startLocalStore, upload, type TestStore } from '../../test/files-kit.js';
import { createScheduledExhibit, eventBody, putBody, schedulesPath } from '../../test/scheduling-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/** What an exhibit's developers change day to day, as the audit log records it: settings, files, schedules. */

let store: TestStore;
let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  store = await startLocalStore();
  server = await startTestServer({ ...store.env, SCHEDULER_POLL_MS: '60000' });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
  await store?.close();
});

describe('the audit log of an exhibit', () => {
  it('records setting values, files and schedules with the exhibit, before and after', { timeout: 60_000 }, async () => {
    const organizationId = (await createOrganization(server.deps.db)).id;
    const { exhibitId, siteId } = await createScheduledExhibit(server, { admin, organizationId });
    const developer = await signUpWith(server, ['organization', organizationId, 'DEVELOPER']);
    const client = developer.client;

    expect((await client.post(`/exhibit-management/exhibit/${exhibitId}/setting/volume`, { value: 7 })).status).toBe(200);
    expect((await upload(client, { exhibitId, siteId }, [{ name: 'intro.mp4', content: 'frames' }])).status).toBe(200);
    const deleted = await client.delete(`/content/files/?exhibitId=${exhibitId}&siteId=${siteId}&fileName=intro.mp4&confirm=true`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const created = await client.post(schedulesPath(exhibitId), eventBody());
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const event = created.body.schedules[0];
    expect((await client.put(schedulesPath(event.id), putBody(event, { eventName: 'Quieter hours' }))).status).toBe(200);
    expect((await client.delete(schedulesPath(event.id))).status).toBe(200);

    const page = AuditPageSchema.parse((await admin.get(`/audit/organization/${organizationId}/entries?exhibitId=${exhibitId}&actor=${encodeURIComponent(developer.email)}`)).body);
    const entries = [...page.entries].reverse();
    expect(entries.map((e) => [e.resource, e.action, e.resourceId])).toEqual([
      ['exhibitSetting', 'update', 'volume'],
      ['file', 'upload', 'intro.mp4'],
      ['file', 'delete', 'intro.mp4'],
      ['schedule', 'create', event.id],
      ['schedule', 'update', event.id],
      ['schedule', 'delete', event.id],
    ]);
    for (const entry of entries) expect(entry).toMatchObject({ siteId, exhibitId, actor: { kind: 'user', id: developer.id, label: developer.email } });
    expect(entries[0]).toMatchObject({ before: { value: 5 }, after: { value: 7 } });
    expect(entries[1]?.after).toMatchObject({ name: 'intro.mp4', size: 6 });
    expect(entries[3]?.after).toMatchObject({ name: 'Quiet hours', events: 1, changes: { settings: [{ settingId: 'volume', value: 3 }] } });
    expect(entries[4]).toMatchObject({ before: { name: 'Quiet hours' }, after: { name: 'Quieter hours' } });
    expect(entries[5]?.before).toMatchObject({ name: 'Quieter hours', events: 1 });
  });
});

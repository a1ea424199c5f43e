import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
import { createExhibit, createOrganization, createSite } from '../test/factories.js';
import { startFakeStrapi, type FakeStrapi } from '../test/fake-strapi.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { Exhibit, type ContentEntry } from '@plinth/sdk';

/** The SDK's side of StrapiContent settings: the real server, a fake content manager, the real SDK. */

let server: TestServer;
let admin: TestClient;
let strapi: FakeStrapi;
let siteId: string;
const open: Exhibit[] = [];

const MANIFEST: ManifestInput = {
  settings: [
    { id: 'hero', type: 'StrapiContent', contentType: 'article', displayFieldName: 'title' },
    { id: 'kiosk_name', type: 'TextInput', default: 'Lobby' },
  ],
};

const wait = { timeout: 10_000, interval: 20 };

beforeAll(async () => {
  strapi = await startFakeStrapi();
  strapi.setEntries('articles', [
    { id: 7, title: 'Moon landing', body: 'One small step', year: 1969 },
    { id: 8, title: 'Mars rover', body: 'Wheels on red dust', year: 2021 },
  ]);
  server = await startTestServer({}, { allowLoopbackHosts: [strapi.host] });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const org = await createOrganization(server.deps.db);
  const value = JSON.stringify({ url: strapi.url, adminUser: 'cms-admin@example.com', adminPassword: 'Adm1n-pass', apiUser: 'api-user', apiPassword: 'Ap1-pass' });
  expect((await admin.put(`/org-management/organization/${org.id}/setting/content_manager_config`, { value })).status).toBe(200);
  siteId = (await createSite(server.deps.db, org.id)).id;
});
afterAll(async () => {
  for (const exhibit of open) exhibit.close();
  await server?.stop();
  await strapi?.close();
});

async function newExhibitRecord(): Promise<{ id: string; token: string }> {
  const exhibit = await createExhibit(server.deps.db, siteId);
  const res = await admin.post('/auth/exhibit', { name: 'main', exhibitId: exhibit.id });
  expect(res.status).toBe(200);
  return { id: exhibit.id, token: res.body.token };
}

/** A connected SDK and every `setting` event it emitted. */
function connect(record: { id: string; token: string }) {
  const exhibit = new Exhibit({ serverUrl: server.url, exhibitId: record.id, token: record.token, manifest: MANIFEST, reconnectMinMs: 50, reconnectMaxMs: 200 });
  open.push(exhibit);
  const events: { id: string; value: unknown; content?: ContentEntry | null }[] = [];
  exhibit.on('setting', (event) => events.push(event));
  return { exhibit, events };
}

const put = (exhibitId: string, contentId: number | null) =>
  admin.put(`/exhibit-management/exhibit/${exhibitId}/strapi-content/hero`, { contentId });

describe('StrapiContent settings in the SDK', () => {
  it('gives the chosen entry with its fields in the `setting` event, and null when cleared', async () => {
    const record = await newExhibitRecord();
    const { exhibit, events } = connect(record);
    await exhibit.ready();
    expect(events).toContainEqual({ id: 'hero', value: null, content: null });
    expect(events.find((e) => e.id === 'kiosk_name')).toEqual({ id: 'kiosk_name', value: 'Lobby' });

    events.length = 0;
    expect((await put(record.id, 7)).status).toBe(200);
    const entry = { id: 7, title: 'Moon landing', body: 'One small step', year: 1969 };
    await vi.waitFor(() => expect(events).toEqual([{ id: 'hero', value: '7', content: entry }]), wait);
    expect(exhibit.getSetting('hero')).toBe('7');
    expect(exhibit.getSettingContent('hero')).toEqual(entry);
    expect(exhibit.getSettingContent('kiosk_name')).toBeUndefined();

    events.length = 0;
    expect((await put(record.id, null)).status).toBe(200);
    await vi.waitFor(() => expect(events).toEqual([{ id: 'hero', value: null, content: null }]), wait);
  });

  it('gets an entry chosen while it was offline when it connects', async () => {
    const record = await newExhibitRecord();
    const first = connect(record);
    await first.exhibit.ready();
    first.exhibit.close();
    expect((await put(record.id, 8)).status).toBe(200);

    const again = connect(record);
    await again.exhibit.ready();
    expect(again.events).toContainEqual({ id: 'hero', value: '8', content: { id: 8, title: 'Mars rover', body: 'Wheels on red dust', year: 2021 } });
    expect(again.exhibit.getSettingContent('hero')).toMatchObject({ id: 8 });
  });
});

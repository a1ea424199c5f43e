import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRAPI_MESSAGES, type GatewayMessage, type GatewayMessageOf, type ManifestInput } from '@plinth/shared';
import { exhibitSettings } from '../../db/schema.js';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createOrganization, createSite, userWith } from '../../test/factories.js';
import { startFakeStrapi, type FakeStrapi, type FakeStrapiEntry } from '../../test/fake-strapi.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { CONTENT_MANAGER_TIMEOUT_MS } from './content-manager.client.js';
import { connectStrapi } from './strapi-connection.service.js';

let server: TestServer;
let admin: TestClient;
let strapi: FakeStrapi;
let strapiV5: FakeStrapi;
/** A content manager only the concurrent sign-in test talks to. */
let strapiAlone: FakeStrapi;
/** A port on 127.0.0.1 where nothing listens. */
let deadUrl: string;
const sockets: ExhibitSocket[] = [];

const MANIFEST: ManifestInput = {
  settings: [
    { id: 'hero', type: 'StrapiContent', contentType: 'article', displayFieldName: 'title' },
    { id: 'people', type: 'StrapiContent', contentType: 'person' },
    { id: 'kiosk_name', type: 'TextInput', default: 'Lobby' },
  ],
};

/** 23 articles, stored out of order: the listing sorts them by id. */
const ARTICLES: FakeStrapiEntry[] = Array.from({ length: 23 }, (_, i) => 23 - i).map((id) => ({
  id,
  title: `Article ${id}`,
  body: `Text of ${id}`,
  views: id * 10,
}));

beforeAll(async () => {
  strapi = await startFakeStrapi();
  strapi.setEntries('articles', ARTICLES);
  strapi.setEntries('people', [{ id: 1, name: 'Ada' }, { id: 2, title: 'no name field' }, { id: 3, name: 42 }]);
  strapiV5 = await startFakeStrapi({ version: 5 });
  strapiV5.setEntries('articles', ARTICLES);
  strapiAlone = await startFakeStrapi();
  strapiAlone.setEntries('articles', ARTICLES);
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  server = await startTestServer({}, { allowLoopbackHosts: [strapi.host, strapiV5.host, strapiAlone.host, new URL(deadUrl).host] });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.stop();
  await strapi?.close();
  await strapiV5?.close();
  await strapiAlone?.close();
});

/** An organization whose content manager is at `url` (no config at all when url is null), a site and an exhibit that sent MANIFEST. */
async function exhibitWithCms(url: string | null, options: { apiPassword?: string } = {}) {
  const org = await createOrganization(server.deps.db);
  if (url !== null) {
    const value = JSON.stringify({ url: `${url}/`, adminUser: 'cms-admin@example.com', adminPassword: 'Adm1n-pass', apiUser: 'api-user', apiPassword: options.apiPassword ?? 'Ap1-pass' });
    expect((await admin.put(`/org-management/organization/${org.id}/setting/content_manager_config`, { value })).status).toBe(200);
  }
  const site = await createSite(server.deps.db, org.id);
  const exhibit = await createExhibit(server.deps.db, site.id);
  const sdk = await connectSdk(exhibit.id);
  return { org, site, exhibitId: exhibit.id, sdk };
}

/** An SDK connection that sent MANIFEST and got its sync. */
async function connectSdk(exhibitId: string): Promise<ExhibitSocket> {
  const sdk = await openExhibitSocket(server, admin, exhibitId);
  sockets.push(sdk);
  sdk.send({ type: 'manifest', requestId: '1', manifest: MANIFEST });
  await sdk.waitFor((m) => m.type === 'exhibit.synced');
  return sdk;
}

const contentPath = (exhibitId: string, settingId = 'hero', page?: number) =>
  `/org-management/organization/setting/strapi/content?exhibitId=${exhibitId}&settingId=${settingId}${page ? `&page=${page}` : ''}`;

describe('GET /org-management/organization/setting/strapi/content', () => {
  it('lists a content type by pages of 10 sorted by id, with the display field, as the API user (Strapi v4)', async () => {
    const { exhibitId } = await exhibitWithCms(strapi.url);
    strapi.calls.length = 0;
    const first = await admin.get(contentPath(exhibitId));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      entries: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, display: `Article ${i + 1}` })),
      page: 1,
      pageCount: 3,
      total: 23,
    });
    const last = await admin.get(contentPath(exhibitId, 'hero', 3));
    expect(last.body).toMatchObject({ page: 3, pageCount: 3, total: 23 });
    expect(last.body.entries.map((e: { id: number }) => e.id)).toEqual([21, 22, 23]);

    const reads = strapi.calls.filter((c) => c.path.startsWith('/api/articles'));
    expect(reads.map((c) => c.query)).toEqual([
      '?pagination[page]=1&pagination[pageSize]=10&sort=id:asc',
      '?pagination[page]=3&pagination[pageSize]=10&sort=id:asc',
    ]);
    expect(reads[0]!.authorization).toMatch(/^Bearer fake-jwt-\d+$/);
    // One jwt for both pages: it is kept a while (it may already be kept from the organizational
    // files listed when the exhibit connected, so at most one sign-in happens here).
    expect(reads[1]!.authorization).toBe(reads[0]!.authorization);
    expect(strapi.calls.filter((c) => c.path === '/api/auth/local').length).toBeLessThanOrEqual(1);
  });

  it('pluralises like Strapi and shows the display field as text ("" when missing)', async () => {
    const { exhibitId } = await exhibitWithCms(strapi.url);
    const res = await admin.get(contentPath(exhibitId, 'people'));
    expect(res.status).toBe(200);
    expect(res.body.entries).toEqual([
      { id: 1, display: 'Ada' },
      { id: 2, display: '' },
      { id: 3, display: '42' },
    ]);
    expect(strapi.calls.some((c) => c.path === '/api/people')).toBe(true);
  });

  it('offers Strapi v5 entries by their documentId', async () => {
    const { exhibitId } = await exhibitWithCms(strapiV5.url);
    const res = await admin.get(contentPath(exhibitId));
    expect(res.status).toBe(200);
    expect(res.body.entries[0]).toEqual({ id: strapiV5.documentIdOf({ id: 1 }), display: 'Article 1' });
    expect(res.body.total).toBe(23);
  });

  it('lets any role on the exhibit list; another organization, unknown things and signed-out callers get nothing', async () => {
    const { org, site, exhibitId } = await exhibitWithCms(strapi.url);
    const viewer = await userWith(server, ['site', site.id, 'VIEWER']);
    expect((await viewer.get(contentPath(exhibitId))).status).toBe(200);
    const other = await createOrganization(server.deps.db);
    const outsider = await userWith(server, ['organization', other.id, 'MANAGER']);
    const refused = await outsider.get(contentPath(exhibitId));
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.body)).not.toContain(org.id);
    expect((await admin.get(contentPath('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await admin.get(contentPath(exhibitId, 'missing'))).status).toBe(404);
    const wrongType = await admin.get(contentPath(exhibitId, 'kiosk_name'));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.response).toBe('Setting "kiosk_name" is not a StrapiContent setting');
    expect((await admin.get(`/org-management/organization/setting/strapi/content?exhibitId=${exhibitId}`)).status).toBe(400);
    expect((await server.client().get(contentPath(exhibitId))).status).toBe(401);
  });

  it('says a Strapi URL is needed when none is set', async () => {
    const { org, exhibitId } = await exhibitWithCms(null);
    const res = await admin.get(contentPath(exhibitId));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ response: STRAPI_MESSAGES.noUrl, code: 'ValidationError', details: { reason: 'noUrl', organizationId: org.id } });
  });

  it('says there is no JWT when the sign-in is refused, cannot reach the content manager or is not allowed', async () => {
    const refused = await exhibitWithCms(strapi.url, { apiPassword: 'wrong-pass' });
    const res = await admin.get(contentPath(refused.exhibitId));
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ response: STRAPI_MESSAGES.noJwt, code: 'ExternalServiceError', details: { reason: 'noJwt', organizationId: refused.org.id } });
    expect(JSON.stringify(res.body)).not.toContain('wrong-pass');

    const dead = await exhibitWithCms(deadUrl);
    const unreachable = await admin.get(contentPath(dead.exhibitId));
    expect(unreachable.status).toBe(502);
    expect(unreachable.body).toMatchObject({ response: STRAPI_MESSAGES.noJwt, details: { reason: 'noJwt', cause: 'The content manager could not be reached.' } });

    // Loopback addresses other than the fakes stay refused, and that reads as no JWT too.
    const internal = await exhibitWithCms('http://localhost:9');
    const blocked = await admin.get(contentPath(internal.exhibitId));
    expect(blocked.status).toBe(502);
    expect(blocked.body).toMatchObject({ response: STRAPI_MESSAGES.noJwt, details: { reason: 'noJwt', cause: expect.stringMatching(/not allowed/) } });
  });

  it('says the options could not be loaded when the content manager fails, answers nonsense or is slow', async () => {
    const { org, exhibitId } = await exhibitWithCms(strapi.url);
    const expected = { response: STRAPI_MESSAGES.options('article'), code: 'ExternalServiceError', details: { reason: 'options', organizationId: org.id } };
    try {
      for (const failure of ['unreachable', 'wrongShape', 'notJson', 'refuse', 'serverError'] as const) {
        strapi.failures.content = failure;
        const res = await admin.get(contentPath(exhibitId));
        expect(res.status, failure).toBe(502);
        expect(res.body, failure).toMatchObject(expected);
      }
      strapi.failures.content = 'slow';
      const started = Date.now();
      const slow = await admin.get(contentPath(exhibitId));
      expect(slow.status).toBe(502);
      expect(slow.body).toMatchObject({ ...expected, details: { ...expected.details, cause: 'The content manager did not answer within 5 seconds.' } });
      expect(Date.now() - started).toBeLessThan(CONTENT_MANAGER_TIMEOUT_MS + 2_000);
    } finally {
      delete strapi.failures.content;
    }
    // A content type the content manager does not have.
    strapi.setEntries('articles', []);
    try {
      const empty = await admin.get(contentPath(exhibitId));
      expect(empty.body).toEqual({ entries: [], page: 1, pageCount: 0, total: 0 });
    } finally {
      strapi.setEntries('articles', ARTICLES);
    }
  }, 20_000);

  it('signs in again when the content manager no longer takes the kept jwt', async () => {
    const { exhibitId } = await exhibitWithCms(strapi.url);
    expect((await admin.get(contentPath(exhibitId))).status).toBe(200);
    strapi.revokeJwts();
    strapi.calls.length = 0;
    const res = await admin.get(contentPath(exhibitId));
    expect(res.status).toBe(200);
    expect(strapi.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/articles', 'POST /api/auth/local', 'GET /api/articles']);
  });
});

type SettingChanged = GatewayMessageOf<'setting.changed'>;
const isHeroChange = (m: GatewayMessage): m is SettingChanged => m.type === 'setting.changed' && m.settingId === 'hero';

async function storedHero(exhibitId: string) {
  const [row] = await server.deps.db
    .select({ value: exhibitSettings.value, content: exhibitSettings.content })
    .from(exhibitSettings)
    .where(and(eq(exhibitSettings.exhibitId, exhibitId), eq(exhibitSettings.manifestId, 'hero')));
  return row;
}

describe('the content manager sign-in', () => {
  it('is shared by reads that need a jwt at the same time, also when it is refused', async () => {
    const org = await createOrganization(server.deps.db);
    const configure = async (apiPassword: string) => {
      const value = JSON.stringify({ url: strapiAlone.url, adminUser: 'cms-admin@example.com', adminPassword: 'Adm1n-pass', apiUser: 'api-user', apiPassword });
      expect((await admin.put(`/org-management/organization/${org.id}/setting/content_manager_config`, { value })).status).toBe(200);
    };
    const signIns = () => strapiAlone.calls.filter((c) => c.path === '/api/auth/local').length;
    // Each read loads the configuration before it looks for a sign-in under way; a slow sign-in keeps
    // the first one under way until the others get there, even on a busy machine.
    strapiAlone.signInDelayMs = 400;

    await configure('Ap1-pass');
    const connections = await Promise.all(Array.from({ length: 5 }, () => connectStrapi(server.deps, org.id)));
    expect(signIns()).toBe(1);
    expect(new Set(connections.map((c) => c.jwt)).size).toBe(1);
    // Once it is kept, it is used without signing in.
    expect((await connectStrapi(server.deps, org.id)).isCached).toBe(true);
    expect(signIns()).toBe(1);

    // A changed password is another sign-in; refused, every waiting read gets the failure, and the next read tries again.
    await configure('wrong-pass');
    const refused = await Promise.allSettled(Array.from({ length: 3 }, () => connectStrapi(server.deps, org.id)));
    expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(signIns()).toBe(2);
    await expect(connectStrapi(server.deps, org.id)).rejects.toMatchObject({ message: STRAPI_MESSAGES.noJwt });
    expect(signIns()).toBe(3);
  });
});

describe('PUT /exhibit-management/exhibit/{id}/strapi-content/{settingId}', () => {
  it('stores the chosen entry, sends it to the exhibit and again on reconnect; null clears it', async () => {
    const { exhibitId, sdk } = await exhibitWithCms(strapi.url);
    const put = (contentId: string | number | null) => admin.put(`/exhibit-management/exhibit/${exhibitId}/strapi-content/hero`, { contentId });
    expect((await put(7)).status).toBe(200);
    const change = (await sdk.waitFor(isHeroChange)) as SettingChanged;
    const entry = { id: 7, title: 'Article 7', body: 'Text of 7', views: 70 };
    expect(change).toMatchObject({ value: '7', content: entry });
    expect(await storedHero(exhibitId)).toEqual({ value: '7', content: entry });
    expect(strapi.calls.at(-1)).toMatchObject({ method: 'GET', path: '/api/articles/7' });

    sdk.close();
    const again = await connectSdk(exhibitId);
    const synced = (await again.waitFor((m) => m.type === 'exhibit.synced')) as GatewayMessageOf<'exhibit.synced'>;
    expect(synced.settings.find((s) => s.settingId === 'hero')).toMatchObject({ value: '7', content: entry });
    expect(synced.settings.find((s) => s.settingId === 'kiosk_name')).not.toHaveProperty('content');

    again.messages.length = 0;
    expect((await put(null)).status).toBe(200);
    expect(await again.waitFor(isHeroChange)).toMatchObject({ value: null, content: null });
    expect(await storedHero(exhibitId)).toEqual({ value: null, content: null });
  });

  it('reads the entry for a value saved through the plain setting call too', async () => {
    const { exhibitId, sdk } = await exhibitWithCms(strapi.url);
    expect((await admin.post(`/exhibit-management/exhibit/${exhibitId}/setting/hero`, { value: '3' })).status).toBe(200);
    expect(await sdk.waitFor(isHeroChange)).toMatchObject({ value: '3', content: { id: 3, title: 'Article 3' } });
  });

  it('reads a stored value back as the text it was (a number-like id is no number)', async () => {
    const { exhibitId } = await exhibitWithCms(strapi.url);
    expect((await admin.put(`/exhibit-management/exhibit/${exhibitId}/strapi-content/hero`, { contentId: 4 })).status).toBe(200);
    expect((await admin.post(`/exhibit-management/exhibit/${exhibitId}/setting/kiosk_name`, { value: '42' })).status).toBe(200);
    const manifest = (await admin.get(`/exhibit-management/exhibit/${exhibitId}/manifest`)).body.manifest;
    expect(manifest.strapiContent.find((s: { manifestId: string }) => s.manifestId === 'hero').value).toBe('4');
    expect(manifest.settings.find((s: { manifestId: string }) => s.manifestId === 'kiosk_name').value).toBe('42');
  });

  it('stores Strapi v5 entries by documentId with their fields', async () => {
    const { exhibitId, sdk } = await exhibitWithCms(strapiV5.url);
    const documentId = strapiV5.documentIdOf({ id: 12 });
    expect((await admin.put(`/exhibit-management/exhibit/${exhibitId}/strapi-content/hero`, { contentId: documentId })).status).toBe(200);
    expect(await sdk.waitFor(isHeroChange)).toMatchObject({ value: documentId, content: { id: 12, documentId, title: 'Article 12' } });
  });

  it('refuses an entry the content manager does not have, and says so when it cannot be read; the value stays', async () => {
    const { exhibitId } = await exhibitWithCms(strapi.url);
    const put = (contentId: string | number) => admin.put(`/exhibit-management/exhibit/${exhibitId}/strapi-content/hero`, { contentId });
    expect((await put(5)).status).toBe(200);
    const missing = await put(999);
    expect(missing.status).toBe(404);
    expect(missing.body.response).toBe('The content manager has no article entry with the id 999.');
    expect((await put('../admin')).status).toBe(400);
    strapi.failures.content = 'serverError';
    try {
      const failed = await put(6);
      expect(failed.status).toBe(502);
      expect(failed.body).toMatchObject({ response: STRAPI_MESSAGES.options('article'), details: { reason: 'options' } });
    } finally {
      delete strapi.failures.content;
    }
    expect(await storedHero(exhibitId)).toMatchObject({ value: '5', content: { id: 5 } });

    const { exhibitId: withoutCms } = await exhibitWithCms(null);
    const noUrl = await admin.put(`/exhibit-management/exhibit/${withoutCms}/strapi-content/hero`, { contentId: 1 });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body).toMatchObject({ response: STRAPI_MESSAGES.noUrl, details: { reason: 'noUrl' } });
  });

  it('copies the entry to followers, which receive it with the value', async () => {
    const { site, exhibitId: leaderId } = await exhibitWithCms(strapi.url);
    const follower = await createExhibit(server.deps.db, site.id, undefined, { leaderId });
    const followerSdk = await connectSdk(follower.id);
    expect((await admin.put(`/exhibit-management/exhibit/${leaderId}/strapi-content/hero`, { contentId: 2 })).status).toBe(200);
    expect(await followerSdk.waitFor(isHeroChange)).toMatchObject({ value: '2', content: { id: 2, title: 'Article 2' } });
    expect(await storedHero(follower.id)).toMatchObject({ value: '2', content: { id: 2 } });
    const refused = await admin.put(`/exhibit-management/exhibit/${follower.id}/strapi-content/hero`, { contentId: 3 });
    expect(refused.status).toBe(409);
  });

  it('needs the right to edit settings', async () => {
    const { site, exhibitId } = await exhibitWithCms(strapi.url);
    const viewer = await userWith(server, ['site', site.id, 'VIEWER']);
    expect((await viewer.put(`/exhibit-management/exhibit/${exhibitId}/strapi-content/hero`, { contentId: 1 })).status).toBe(403);
  });
});

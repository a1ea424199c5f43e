import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, type CreatedApiKey } from '@plinth/shared';
import { sql } from 'drizzle-orm';
import { createExhibit, createWorld, grant } from '../../test/factories.js';
import { waitUntil } from '../../test/hardware-kit.js';
import { download, downloadUrl } from '../../test/files-kit.js';
import type { TestClient, TestResponse } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/**
 * API keys (issue 20) on the real server: made by an organization's manager, calling REST with
 * `Authorization: Bearer` within their role and scope, named in histories, throttled per key,
 * refused at once on every node when revoked (two servers on one PostgreSQL).
 */

let a: TestServer;
let b: TestServer;
let manager: TestClient;
let managerEmail: string;
let world: Awaited<ReturnType<typeof createWorld>>;

const RATE_LIMIT = 5;

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ API_KEY_RATE_LIMIT: String(RATE_LIMIT) }, { databaseUrl: a.databaseUrl });
  world = await createWorld(a);
  const signedUp = await a.signUp();
  await grant(a.deps.db, 'organization', world.org.id, signedUp.id, 'MANAGER');
  manager = signedUp.client;
  managerEmail = signedUp.email;
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

async function createKey(body: Record<string, unknown>): Promise<CreatedApiKey> {
  const res = await manager.post(`/org-management/organization/${world.org.id}/api-keys`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CreatedApiKey;
}

/** A REST call with the key, from a client without cookies, on server `a` unless told. */
function withKey<T = any>(key: string, method: string, path: string, options: { body?: unknown; server?: TestServer } = {}): Promise<TestResponse<T>> {
  return (options.server ?? a).client().request<T>(method, path, options.body, { authorization: `Bearer ${key}` });
}

async function exhibitRecord(exhibitId: string): Promise<string[]> {
  await a.deps.logs.flush();
  const res = await manager.get(`/logging/exhibit?exhibitId=${exhibitId}&start=${Date.now() - 3_600_000}&end=${Date.now() + 1000}&logsPerPage=500`);
  expect(res.status).toBe(200);
  return (res.body.logs as { message: string }[]).map((l) => l.message);
}

describe('managing keys', () => {
  it('creates a key shown once, stores only its hash, lists it without its value', async () => {
    const created = await createKey({ name: 'Show control', role: 'developer' });
    expect(created.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(created).toMatchObject({ name: 'Show control', role: 'DEVELOPER', sites: null, expiresAt: null, createdBy: managerEmail, lastUsedAt: null });
    const rows = (await a.deps.db.execute(sql`select * from api_keys where id = ${created.id}`)) as unknown as { rows: unknown[] };
    const stored = JSON.stringify(rows.rows);
    expect(stored).toContain(created.id);
    expect(stored).toContain('secret_hash');
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice(-43));
    const list = await manager.get(`/org-management/organization/${world.org.id}/api-keys`);
    expect(list.status).toBe(200);
    const listed = (list.body.keys as Record<string, unknown>[]).find((k) => k.id === created.id);
    expect(listed).toMatchObject({ name: 'Show control' });
    expect(listed).not.toHaveProperty('key');
    expect(JSON.stringify(list.body)).not.toContain(created.key);
  });

  it('is for the organization’s managers: a developer gets 403, an outsider 404, sites of another organization 400', async () => {
    const developer = await a.signUp();
      await grant(a.deps.db, 'organization', world.org.id, developer.id, 'DEVELOPER');
    expect((await developer.client.get(`/org-management/organization/${world.org.id}/api-keys`)).status).toBe(403);
    expect((await developer.client.post(`/org-management/organization/${world.org.id}/api-keys`, { name: 'x', role: 'viewer' })).status).toBe(403);
    expect((await world.outsider.get(`/org-management/organization/${world.org.id}/api-keys`)).status).toBe(404);
    const foreign = await manager.post(`/org-management/organization/${world.org.id}/api-keys`, { name: 'x', role: 'viewer', siteIds: [world.otherSite.id] });
    expect(foreign.status).toBe(400);
    const past = await manager.post(`/org-management/organization/${world.org.id}/api-keys`, { name: 'x', role: 'viewer', expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    const admin = await a.signUp({ isPlatformAdmin: true });
    const byAdmin = await admin.client.post(`/org-management/organization/${world.org.id}/api-keys`, { name: 'By admin', role: 'viewer' });
    expect(byAdmin.status).toBe(200);
    expect((await admin.client.get(`/org-management/organization/${world.org.id}/api-keys`)).body.keys.map((k: { name: string }) => k.name)).toContain('By admin');
  });
});

describe('calling with a key', () => {
  it('reads and writes within its role, and the exhibit’s history names the key', async () => {
    const { key } = await createKey({ name: 'Nightly script', role: 'DEVELOPER' });
    const exhibit = world.exhibit;
    const read = await withKey(key, 'GET', `/exhibit-management/exhibit/${exhibit.id}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('Pendulum');
    const write = await withKey(key, 'POST', `/exhibit-management/exhibit/${exhibit.id}/opMode`, { body: { opMode: 'On' } });
    expect(write.status, JSON.stringify(write.body)).toBe(200);
    expect(await exhibitRecord(exhibit.id)).toContain('Op mode set to On by API key "Nightly script"');
  });

  it('uploads and downloads an exhibit’s files, the upload recorded under the key’s name', async () => {
    const { key } = await createKey({ name: 'Content sync', role: 'DEVELOPER' });
    const exhibit = world.exhibit;
    const form = new FormData();
    form.append('file', new Blob(['hello from a script']), 'welcome.txt');
    const uploaded = await withKey(key, 'POST', `/content/files/upload?exhibitId=${exhibit.id}&siteId=${world.siteA.id}`, { body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const downloaded = await download(downloadUrl(a.url, exhibit.id, 'welcome.txt'), { authorization: `Bearer ${key}` });
    expect(downloaded.status).toBe(200);
    expect(downloaded.body.toString()).toBe('hello from a script');
    expect((await exhibitRecord(exhibit.id)).some((m) => m.includes('welcome.txt') && m.includes('API key "Content sync"'))).toBe(true);
  });

  it('refuses a viewer key a write (403)', async () => {
    const { key } = await createKey({ name: 'Viewer', role: 'VIEWER' });
    expect((await withKey(key, 'GET', `/exhibit-management/exhibit/${world.exhibit.id}`)).status).toBe(200);
    const write = await withKey(key, 'POST', `/exhibit-management/exhibit/${world.exhibit.id}/opMode`, { body: { opMode: 'Off' } });
    expect(write.status).toBe(403);
  });

  it('limits a site-scoped key to its sites', async () => {
    const inB = await createExhibit(a.deps.db, world.siteB.id, 'Orrery');
    const created = await createKey({ name: 'B only', role: 'MANAGER', siteIds: [world.siteB.id] });
    expect(created.sites).toEqual([{ id: world.siteB.id, name: 'B wing' }]);
    expect((await withKey(created.key, 'GET', `/exhibit-management/exhibit/${inB.id}`)).status).toBe(200);
    expect((await withKey(created.key, 'GET', `/exhibit-management/exhibit/${world.exhibit.id}`)).status).toBe(404);
    expect((await withKey(created.key, 'GET', `/org-management/site/${world.siteA.id}`)).status).toBe(404);
    expect((await withKey(created.key, 'GET', `/exhibit-management/exhibit/${world.other.id}`)).status).toBe(404);
    // A manager of a site does not administer the organization.
    const edit = await withKey(created.key, 'PUT', `/org-management/organization/${world.org.id}`, { body: { name: 'Renamed' } });
    expect(edit.status).toBe(403);
  });

  it('never manages users, grants or keys, nor acts as a person (403)', async () => {
    const { key } = await createKey({ name: 'Manager key', role: 'MANAGER' });
    const calls: [string, string, unknown?][] = [
      ['GET', '/auth'],
      ['GET', `/org-management/organization/${world.org.id}/api-keys`],
      ['POST', `/org-management/organization/${world.org.id}/api-keys`, { name: 'Another', role: 'viewer' }],
      ['GET', `/org-management/permission/organization?organizationId=${world.org.id}`],
      ['POST', '/org-management/permission/organization', { email: 'someone@example.com', role: 'viewer', organizationId: world.org.id }],
      ['POST', '/logging/exhibit/live', { exhibitId: world.exhibit.id, enabled: true }],
    ];
    for (const [method, path, body] of calls) {
      const res = await withKey(key, method, path, { body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.message).toMatch(/API keys cannot make this call/);
    }
  });

  it('answers 401 to an unknown key, a malformed one and an expired one, saying why', async () => {
    const { key, id } = await createKey({ name: 'Short-lived', role: 'VIEWER', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await withKey(key, 'GET', '/exhibit-management/exhibit')).status).toBe(200);
    await a.deps.db.execute(sql`update api_keys set expires_at = now() - interval '1 second' where id = ${id}`);
    const expired = await withKey(key, 'GET', '/exhibit-management/exhibit');
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('This API key has expired.');
    const wrong = await withKey(`${key.slice(0, -4)}AAAA`, 'GET', '/exhibit-management/exhibit');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('The API key is not valid.');
    expect((await withKey('not-a-key', 'GET', '/exhibit-management/exhibit')).status).toBe(401);
    expect((await withKey(`plk_${'a'.repeat(16)}_${'x'.repeat(8000)}`, 'GET', '/exhibit-management/exhibit')).status).toBe(401);
    // A bad key is refused even on a public route: a caller is never silently signed out.
    expect((await withKey('not-a-key', 'GET', '/auth/login-methods')).status).toBe(401);
  });

  it('records when it was last used, at most once a minute', async () => {
    const { key, id } = await createKey({ name: 'Used', role: 'VIEWER' });
    await withKey(key, 'GET', '/exhibit-management/exhibit');
    const listed = async () =>
      ((await manager.get(`/org-management/organization/${world.org.id}/api-keys`)).body.keys as { id: string; lastUsedAt: string | null }[]).find(
        (k) => k.id === id,
      )!.lastUsedAt;
    const first = await listed();
    expect(first).not.toBeNull();
    await withKey(key, 'GET', '/exhibit-management/exhibit');
    expect(await listed()).toBe(first);
  });
});

describe('on every node', () => {
  it('a revocation through one node refuses the next call on the other at once', async () => {
    const created = await createKey({ name: 'Revoked soon', role: 'VIEWER' });
    expect((await withKey(created.key, 'GET', '/exhibit-management/exhibit', { server: b })).status).toBe(200);
    const revoked = await manager.delete(`/org-management/api-keys/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ revokedBy: managerEmail });
    expect(revoked.body.revokedAt).not.toBeNull();
    const refused = await withKey(created.key, 'GET', '/exhibit-management/exhibit', { server: b });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('This API key has been revoked.');
  });

  it('throttles each key, counted across nodes: 429 with Retry-After past the budget', async () => {
    const { key } = await createKey({ name: 'Busy', role: 'VIEWER' });
    const other = await createKey({ name: 'Quiet', role: 'VIEWER' });
    // Node b allows RATE_LIMIT calls a minute; calls made through a count too.
    for (let i = 0; i < RATE_LIMIT; i += 1) {
      const server = i % 2 ? a : b;
      expect((await withKey(key, 'GET', '/exhibit-management/exhibit', { server })).status).toBe(200);
    }
    const refused = await withKey(key, 'GET', '/exhibit-management/exhibit', { server: b });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await withKey(other.key, 'GET', '/exhibit-management/exhibit', { server: b })).status).toBe(200);
  });
});

describe('the audit log', () => {
  it('records a key made and revoked under the manager, and a change made with the key under the key’s name', async () => {
    const exhibit = await createExhibit(a.deps.db, world.siteA.id);
    const created = await createKey({ name: 'Audited script', role: 'developer' });
    expect((await withKey(created.key, 'POST', `/exhibit-management/exhibit/${exhibit.id}/opMode`, { body: { opMode: 'On' } })).status).toBe(200);
    expect((await withKey(created.key, 'GET', `/exhibit-management/exhibit/${exhibit.id}`)).status).toBe(200);
    expect((await manager.delete(`/org-management/api-keys/${created.id}`)).status).toBe(200);
    type Entry = { resource: string; resourceId: string; action: string; actor: { kind: string; label: string }; before: unknown; after: unknown };
    // A call's entry is written once its answer went out.
    const entries = await waitUntil(async () => {
      const res = await manager.get(`/audit/organization/${world.org.id}/entries?pageSize=50`);
      expect(res.status).toBe(200);
      const all = (res.body.entries as Entry[]).reverse();
      return all.filter((e) => e.action === 'call' && e.actor.label === 'API key "Audited script"').length >= 2 ? all : undefined;
    }, 'the key calls recorded');
    // Every call with the key, the read included: method, route template (no ids), status.
    expect(entries.filter((e) => e.action === 'call' && e.actor.label === 'API key "Audited script"').map((e) => [e.resource, e.actor.kind, e.after])).toEqual([
      ['apiCall', 'apiKey', { method: 'POST', route: '/api/v1/exhibit-management/exhibit/:id/opMode', status: 200 }],
      ['apiCall', 'apiKey', { method: 'GET', route: '/api/v1/exhibit-management/exhibit/:id', status: 200 }],
    ]);
    const ofKey = entries.filter((e) => e.resourceId === created.id);
    expect(ofKey.map((e) => [e.action, e.actor.kind, e.actor.label])).toEqual([
      ['create', 'user', managerEmail],
      ['revoke', 'user', managerEmail],
    ]);
    expect(ofKey[0]!.after).toMatchObject({ name: 'Audited script', role: 'DEVELOPER' });
    expect(JSON.stringify(entries)).not.toContain(created.key);
    const opMode = entries.find((e) => e.resource === 'exhibit' && e.resourceId === exhibit.id && e.action === 'opMode');
    expect(opMode?.actor).toMatchObject({ kind: 'apiKey', label: 'API key "Audited script"' });
  });
});

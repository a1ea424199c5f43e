import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@plinth/shared';
import { organizationSettings } from '../../db/schema.js';
import { createSecretBox, newSecretKeyText, parseSecretKey } from '../../lib/secret-box.js';
import { createOrganization, createSite, grant } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { encryptClearContentManagerSecrets } from './content-manager-config.service.js';

/** A tiny stand-in for Strapi, the external content manager: real HTTP, its two sign-in calls. */
type StrapiCall = { method: string; path: string; body: unknown };

let server: TestServer;
let admin: TestClient;
let strapi: http.Server;
let strapiUrl: string;
const calls: StrapiCall[] = [];
/** What the fake answers next: 'ok', a refusal, a body Strapi would never send, or a redirect to `internalUrl`. */
let mode: 'ok' | 'refuse' | 'garbage' | 'redirect' = 'ok';
/** A port on 127.0.0.1 where nothing listens. */
let deadUrl: string;
/** A live server on 127.0.0.1 standing for an internal service the server must never call. */
let internal: http.Server;
let internalUrl: string;
const internalCalls: string[] = [];

async function listen(target: http.Server): Promise<string> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  internal = http.createServer((req, res) => {
    internalCalls.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: { token: 'internal-token', user: null }, jwt: 'internal-jwt' }));
  });
  internalUrl = await listen(internal);
  const closed = http.createServer();
  deadUrl = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
  strapi = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body: unknown = raw ? JSON.parse(raw) : null;
      calls.push({ method: req.method ?? '', path: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      if (mode === 'redirect') {
        res.statusCode = 307;
        res.setHeader('location', `${internalUrl}${req.url ?? '/'}`);
        res.end();
      } else if (mode === 'refuse') {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: { status: 400, message: 'Invalid credentials' } }));
      } else if (mode === 'garbage') {
        res.end(JSON.stringify({ unexpected: true }));
      } else if (req.method === 'POST' && req.url === '/admin/login') {
        res.end(JSON.stringify({ data: { token: 'admin-token-1', user: { id: 1, email: (body as { email: string }).email } } }));
      } else if (req.method === 'POST' && req.url === '/api/auth/local') {
        res.end(JSON.stringify({ jwt: 'api-jwt-1', user: { id: 2 } }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: 'not found' }));
      }
    });
  });
  strapiUrl = await listen(strapi);
  // Loopback stays refused as in production, except the fake Strapi and the dead port.
  server = await startTestServer({}, { allowLoopbackHosts: [new URL(strapiUrl).host, new URL(deadUrl).host] });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => strapi?.close(resolve));
  await new Promise((resolve) => internal?.close(resolve));
});

async function userWith(scope: 'organization' | 'site', id: string, role: Role) {
  const { client, id: userId } = await server.signUp();
  await grant(server.deps.db, scope, id, userId, role);
  return client;
}

async function organizationWithCms(url: string) {
  const org = await createOrganization(server.deps.db);
  const value = JSON.stringify({
    url: `${url}/`,
    adminUser: 'cms-admin@example.com',
    adminPassword: 'Adm1n-pass',
    apiUser: 'api-user',
    apiPassword: 'Ap1-pass',
  });
  const saved = await admin.put(`/org-management/organization/${org.id}/setting/content_manager_config`, { value });
  expect(saved.status).toBe(200);
  return org;
}

describe('POST /org-management/organization/setting/strapi/login', () => {
  it('signs in to the content manager as its admin for any organization role', async () => {
    mode = 'ok';
    const org = await organizationWithCms(strapiUrl);
    const viewer = await userWith('organization', org.id, 'VIEWER');
    calls.length = 0;
    const res = await viewer.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: 'admin-token-1', user: { id: 1, email: 'cms-admin@example.com' } });
    expect(calls).toEqual([
      { method: 'POST', path: '/admin/login', body: { email: 'cms-admin@example.com', password: 'Adm1n-pass' } },
    ]);
  });

  it('answers 400 when no content manager URL is configured', async () => {
    const org = await createOrganization(server.deps.db);
    const res = await admin.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`);
    expect(res.status).toBe(400);
    expect(res.body.response).toBe('The content manager URL is not configured for this organization.');
  });

  it('answers 502 when the content manager refuses, answers nonsense or cannot be reached', async () => {
    const org = await organizationWithCms(strapiUrl);
    const path = `/org-management/organization/setting/strapi/login?organizationId=${org.id}`;
    mode = 'refuse';
    const refused = await admin.post(path);
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('ExternalServiceError');
    mode = 'garbage';
    expect((await admin.post(path)).status).toBe(502);
    mode = 'ok';

    const dead = await organizationWithCms(deadUrl);
    const unreachable = await admin.post(`/org-management/organization/setting/strapi/login?organizationId=${dead.id}`);
    expect(unreachable.status).toBe(502);
    expect(unreachable.body).toMatchObject({ code: 'ExternalServiceError', response: 'The content manager could not be reached.' });
  });

  it('refuses site-only users (403), other organizations (404) and a missing organizationId (400)', async () => {
    mode = 'ok';
    const org = await organizationWithCms(strapiUrl);
    const site = await createSite(server.deps.db, org.id);
    const siteManager = await userWith('site', site.id, 'MANAGER');
    const path = `/org-management/organization/setting/strapi/login?organizationId=${org.id}`;
    expect((await siteManager.post(path)).status).toBe(403);
    const other = await createOrganization(server.deps.db);
    const outsider = await userWith('organization', other.id, 'MANAGER');
    expect((await outsider.post(path)).status).toBe(404);
    const missing = await admin.post('/org-management/organization/setting/strapi/login');
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/^organizationId: /);
    expect((await server.client().post(path)).status).toBe(401);
  });
});

describe('POST /org-management/organization/setting/strapi/auth', () => {
  it('answers the jwt of the content manager API user', async () => {
    mode = 'ok';
    const org = await organizationWithCms(strapiUrl);
    const developer = await userWith('organization', org.id, 'DEVELOPER');
    calls.length = 0;
    const res = await developer.post('/org-management/organization/setting/strapi/auth', { organizationId: org.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jwt: 'api-jwt-1' });
    expect(calls).toEqual([
      { method: 'POST', path: '/api/auth/local', body: { identifier: 'api-user', password: 'Ap1-pass' } },
    ]);
  });

  it('validates the body and refuses outsiders', async () => {
    const org = await organizationWithCms(strapiUrl);
    const bad = await admin.post('/org-management/organization/setting/strapi/auth', { organizationId: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.response).toBe('organizationId: must be a valid id');
    const other = await createOrganization(server.deps.db);
    const outsider = await userWith('organization', other.id, 'VIEWER');
    const res = await outsider.post('/org-management/organization/setting/strapi/auth', { organizationId: org.id });
    expect(res.status).toBe(404);
    mode = 'refuse';
    const refused = await admin.post('/org-management/organization/setting/strapi/auth', { organizationId: org.id });
    expect(refused.status).toBe(502);
    mode = 'ok';
  });
});

describe('what the server fetches for the content manager (SSRF)', () => {
  it('never calls a loopback address an organization manager configures', async () => {
    const org = await createOrganization(server.deps.db);
    const manager = await userWith('organization', org.id, 'MANAGER');
    const port = new URL(internalUrl).port;
    for (const url of [
      internalUrl,
      `http://localhost:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      `http://2130706433:${port}`,
      `http://0.0.0.0:${port}`,
    ]) {
      const value = JSON.stringify({ url, adminUser: 'a@example.com', adminPassword: 'p', apiUser: 'u', apiPassword: 'p' });
      expect((await manager.put(`/org-management/organization/${org.id}/setting/content_manager_config`, { value })).status).toBe(200);
      const login = await manager.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`);
      expect(login.status, url).toBe(400);
      expect(login.body).toMatchObject({ code: 'ValidationError' });
      expect(login.body.response).toMatch(/not allowed/);
      const auth = await manager.post('/org-management/organization/setting/strapi/auth', { organizationId: org.id });
      expect(auth.status, url).toBe(400);
    }
    expect(internalCalls).toEqual([]);
  });

  it('refuses to follow the content manager to an internal address', async () => {
    const org = await organizationWithCms(strapiUrl);
    mode = 'redirect';
    try {
      const login = await admin.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`);
      expect(login.status).toBe(502);
      expect(login.body.code).toBe('ExternalServiceError');
      expect(login.body.response).toMatch(/not allowed/);
    } finally {
      mode = 'ok';
    }
    expect(internalCalls).toEqual([]);
  });
});

describe('stored content-manager passwords', () => {
  const storedRow = (organizationId: string) =>
    and(eq(organizationSettings.organizationId, organizationId), eq(organizationSettings.idString, 'content_manager_config'));
  const storedValue = async (organizationId: string) =>
    (await server.deps.db.select().from(organizationSettings).where(storedRow(organizationId)))[0]!.value;

  it('keeps signing in with the stored password after a save that leaves it out', async () => {
    mode = 'ok';
    const org = await organizationWithCms(strapiUrl);
    const value = JSON.stringify({ url: strapiUrl, adminUser: 'other-admin@example.com', apiUser: 'api-user', adminPassword: '' });
    expect((await admin.put(`/org-management/organization/${org.id}/setting/content_manager_config`, { value })).status).toBe(200);
    calls.length = 0;
    const res = await admin.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`);
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      { method: 'POST', path: '/admin/login', body: { email: 'other-admin@example.com', password: 'Adm1n-pass' } },
    ]);
  });

  it('uses passwords an earlier version stored in clear, and seals them at the next start', async () => {
    mode = 'ok';
    const org = await createOrganization(server.deps.db);
    const clear = JSON.stringify({ url: strapiUrl, adminUser: 'cms-admin@example.com', adminPassword: 'Cl3ar-pass', apiUser: 'api-user', apiPassword: '' });
    await server.deps.db.update(organizationSettings).set({ value: clear }).where(storedRow(org.id));
    const shown = await admin.get(`/org-management/organization/${org.id}`);
    expect(JSON.stringify(shown.body)).not.toContain('Cl3ar-pass');
    calls.length = 0;
    expect((await admin.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`)).status).toBe(200);
    expect(calls[0]!.body).toEqual({ email: 'cms-admin@example.com', password: 'Cl3ar-pass' });

    await encryptClearContentManagerSecrets({ db: server.deps.db, secrets: server.deps.secrets, logger: pino({ level: 'silent' }) });
    const sealed = JSON.parse(await storedValue(org.id)) as Record<string, string>;
    expect(sealed.adminPassword).toMatch(/^enc:v1:/);
    expect(sealed.apiPassword).toBe('');
    calls.length = 0;
    expect((await admin.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`)).status).toBe(200);
    expect(calls[0]!.body).toEqual({ email: 'cms-admin@example.com', password: 'Cl3ar-pass' });
  });

  it('says so when the passwords were sealed with another SECRET_KEY', async () => {
    const org = await organizationWithCms(strapiUrl);
    const other = createSecretBox(parseSecretKey(newSecretKeyText())!);
    const stored = JSON.parse(await storedValue(org.id)) as Record<string, string>;
    const foreign = { ...stored, adminPassword: other.seal('x', `content_manager_config:${org.id}:adminPassword`) };
    await server.deps.db.update(organizationSettings).set({ value: JSON.stringify(foreign) }).where(storedRow(org.id));
    calls.length = 0;
    const res = await admin.post(`/org-management/organization/setting/strapi/login?organizationId=${org.id}`);
    expect(res.status).toBe(503);
    expect(res.body.response).toMatch(/SECRET_KEY/);
    expect(calls).toEqual([]);
  });
});

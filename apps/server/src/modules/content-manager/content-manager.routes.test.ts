import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@plinth/shared';
import { createOrganization, createSite, grant } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/** A tiny stand-in for Strapi, the external content manager: real HTTP, its two sign-in calls. */
type StrapiCall = { method: string; path: string; body: unknown };

let server: TestServer;
let admin: TestClient;
let strapi: http.Server;
let strapiUrl: string;
const calls: StrapiCall[] = [];
/** What the fake answers next: 'ok', a refusal, or a body Strapi would never send. */
let mode: 'ok' | 'refuse' | 'garbage' = 'ok';

beforeAll(async () => {
  strapi = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body: unknown = raw ? JSON.parse(raw) : null;
      calls.push({ method: req.method ?? '', path: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      if (mode === 'refuse') {
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
  await new Promise<void>((resolve) => strapi.listen(0, '127.0.0.1', resolve));
  strapiUrl = `http://127.0.0.1:${(strapi.address() as AddressInfo).port}`;
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => strapi?.close(resolve));
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

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
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

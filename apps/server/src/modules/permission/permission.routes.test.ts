import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExhibit, createOrganization, createSite, grant, signUpWith, uniqueName, type GrantSpec } from '../../test/factories.js';
import { linkIn } from '../../test/mail-capture.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;

type Member = { client: TestClient; id: string; email: string; grantId: string };

/** Organization A with two sites and the people of every role; organization B with its own manager. */
type World = {
  orgA: string;
  siteA1: string;
  siteA2: string;
  orgB: string;
  siteB1: string;
  manager: Member;
  developer: Member;
  viewer: Member;
  siteManager: Member;
  exhibitOnly: Member;
  outsider: Member;
};

async function member(...spec: GrantSpec): Promise<Member> {
  const { grantIds, ...user } = await signUpWith(server, spec);
  return { ...user, grantId: grantIds[0]! };
}

async function makeWorld(): Promise<World> {
  const db = server.deps.db;
  const orgA = (await createOrganization(db, uniqueName('Museum A'))).id;
  const siteA1 = (await createSite(db, orgA, 'Hall 1')).id;
  const siteA2 = (await createSite(db, orgA, 'Hall 2')).id;
  const orgB = (await createOrganization(db, uniqueName('Museum B'))).id;
  const siteB1 = (await createSite(db, orgB, 'Other hall')).id;
  const exhibitA1 = (await createExhibit(db, siteA1, 'Volcano')).id;
  return {
    orgA,
    siteA1,
    siteA2,
    orgB,
    siteB1,
    manager: await member('organization', orgA, 'MANAGER'),
    developer: await member('organization', orgA, 'DEVELOPER'),
    viewer: await member('organization', orgA, 'VIEWER'),
    siteManager: await member('site', siteA1, 'MANAGER'),
    exhibitOnly: await member('exhibit', exhibitA1, 'MANAGER'),
    outsider: await member('organization', orgB, 'MANAGER'),
  };
}

let w: World;

beforeAll(async () => {
  server = await startTestServer();
  w = await makeWorld();
});
afterAll(async () => {
  await server?.stop();
});

const orgList = (client: TestClient, organizationId: string) =>
  client.get(`/org-management/permission/organization?organizationId=${organizationId}`);

describe('GET /org-management/permission/organization', () => {
  it('lists the organization users with lowercase roles and tells a manager they may manage', async () => {
    const res = await orgList(w.manager.client, w.orgA);
    expect(res.status).toBe(200);
    expect(res.body.canManage).toBe(true);
    const byEmail = new Map(res.body.permissions.map((p: { email: string }) => [p.email, p]));
    expect(byEmail.get(w.manager.email)).toEqual({
      id: w.manager.grantId,
      userId: w.manager.id,
      email: w.manager.email,
      firstName: 'Test',
      lastName: expect.any(String),
      role: 'manager',
      accountCreated: true,
    });
    expect(byEmail.get(w.developer.email)).toMatchObject({ role: 'developer' });
    expect(byEmail.get(w.viewer.email)).toMatchObject({ role: 'viewer' });
    // Site and exhibit grants are not organization users, and other organizations do not leak.
    expect(byEmail.has(w.siteManager.email)).toBe(false);
    expect(byEmail.has(w.outsider.email)).toBe(false);
  });

  it('answers canManage false to developers and viewers', async () => {
    for (const m of [w.developer, w.viewer]) {
      const res = await orgList(m.client, w.orgA);
      expect(res.status).toBe(200);
      expect(res.body.canManage).toBe(false);
    }
  });

  it('answers 403 to users who only hold a site or exhibit grant inside, 404 to another organization', async () => {
    expect((await orgList(w.siteManager.client, w.orgA)).status).toBe(403);
    expect((await orgList(w.exhibitOnly.client, w.orgA)).status).toBe(403);
    const outsider = await orgList(w.outsider.client, w.orgA);
    expect(outsider.status).toBe(404);
    expect(outsider.body.response).toBe('NotFound');
    expect((await orgList(w.manager.client, randomUUID())).status).toBe(404);
  });

  it('validates the query and needs a session', async () => {
    const bad = await w.manager.client.get('/org-management/permission/organization?organizationId=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.response).toMatch(/^organizationId: /);
    const missing = await w.manager.client.get('/org-management/permission/organization');
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/organizationId/);
    expect((await orgList(server.client(), w.orgA)).status).toBe(401);
  });

  it('lets a platform admin see and manage any organization', async () => {
    const admin = await server.signUp({ isPlatformAdmin: true });
    const res = await orgList(admin.client, w.orgB);
    expect(res.status).toBe(200);
    expect(res.body.canManage).toBe(true);
    expect(res.body.permissions.map((p: { email: string }) => p.email)).toEqual([w.outsider.email]);
  });
});

describe('POST /org-management/permission/organization', () => {
  it('adds an existing user with the default viewer role, and refuses adding them twice', async () => {
    const someone = await server.signUp();
    const res = await w.manager.client.post('/org-management/permission/organization', {
      organizationId: w.orgA,
      email: someone.email.toUpperCase(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: someone.id, email: someone.email, role: 'viewer', accountCreated: true });
    expect((await orgList(someone.client, w.orgA)).status).toBe(200);
    const again = await w.manager.client.post('/org-management/permission/organization', {
      organizationId: w.orgA,
      email: someone.email,
      role: 'manager',
    });
    expect(again.status).toBe(409);
    expect(again.body.response).toBe('UserAlreadyAdded');
    // An existing user gets no invitation mail.
    await expect(server.mail.waitFor(someone.email, () => true, 200)).rejects.toThrow(/No mail/);
  });

  it('takes the role in either case', async () => {
    const someone = await server.signUp();
    const res = await w.manager.client.post('/org-management/permission/organization', {
      organizationId: w.orgA,
      email: someone.email,
      role: 'DEVELOPER',
    });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('developer');
  });

  it('invites an unknown email: the mailed create-account link makes an account that sees the organization', async () => {
    const email = `invited.${randomUUID().slice(0, 8)}@example.com`;
    const res = await w.manager.client.post('/org-management/permission/organization', {
      organizationId: w.orgA,
      email,
      role: 'developer',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, role: 'developer', accountCreated: false, firstName: '', lastName: '' });
    const mail = await server.mail.waitFor(email, (m) => /invited/.test(m.subject));
    const link = linkIn(mail);
    expect(link.origin).toBe(server.deps.config.publicUrl);
    expect(link.pathname).toBe('/create-account');
    const created = await server.client().post('/auth/user/generic', {
      resetUrlId: link.searchParams.get('id'),
      firstName: 'Ivy',
      lastName: 'Invited',
      password: 'Inv1tedPass',
    });
    expect(created.status).toBe(200);
    const invited = await server.signIn(email, 'Inv1tedPass');
    const list = await orgList(invited, w.orgA);
    expect(list.status).toBe(200);
    expect(list.body.canManage).toBe(false);
    expect(list.body.permissions.find((p: { email: string }) => p.email === email)).toMatchObject({
      firstName: 'Ivy',
      role: 'developer',
      accountCreated: true,
    });
  });

  it('refuses developers and viewers (403), other organizations (404) and inner grants (403)', async () => {
    const body = { organizationId: w.orgA, email: 'x.refused@example.com' };
    for (const m of [w.developer, w.viewer, w.siteManager]) {
      const res = await m.client.post('/org-management/permission/organization', body);
      expect(res.status).toBe(403);
    }
    expect((await w.outsider.client.post('/org-management/permission/organization', body)).status).toBe(404);
    await expect(server.mail.waitFor('x.refused@example.com', () => true, 200)).rejects.toThrow(/No mail/);
  });

  it('validates email, role and organizationId', async () => {
    const bad = await w.manager.client.post('/org-management/permission/organization', { organizationId: w.orgA, email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.response).toBe('InvalidEmail');
    const role = await w.manager.client.post('/org-management/permission/organization', {
      organizationId: w.orgA,
      email: 'a.role@example.com',
      role: 'owner',
    });
    expect(role.status).toBe(400);
    expect(role.body.response).toMatch(/^role: /);
    const org = await w.manager.client.post('/org-management/permission/organization', { email: 'a.org@example.com' });
    expect(org.status).toBe(400);
    expect(org.body.response).toMatch(/^organizationId: /);
  });
});

describe('PUT and DELETE /org-management/permission/organization/{id}', () => {
  it('lets a manager change a role and remove a user', async () => {
    const someone = await server.signUp();
    const grantId = await grant(server.deps.db, 'organization', w.orgA, someone.id, 'VIEWER');
    const put = await w.manager.client.put(`/org-management/permission/organization/${grantId}`, { role: 'manager' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: grantId, role: 'manager', email: someone.email });
    expect((await orgList(someone.client, w.orgA)).body.canManage).toBe(true);
    const del = await w.manager.client.delete(`/org-management/permission/organization/${grantId}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true });
    expect((await orgList(someone.client, w.orgA)).status).toBe(404);
    expect((await w.manager.client.delete(`/org-management/permission/organization/${grantId}`)).status).toBe(404);
  });

  it('refuses changing or removing your own grant', async () => {
    const put = await w.manager.client.put(`/org-management/permission/organization/${w.manager.grantId}`, { role: 'viewer' });
    expect(put.status).toBe(400);
    expect(put.body.response).toBe('You cannot change your own role.');
    const del = await w.manager.client.delete(`/org-management/permission/organization/${w.manager.grantId}`);
    expect(del.status).toBe(400);
    expect(del.body.response).toBe('You cannot change your own role.');
  });

  it('refuses developers and viewers (403) and other organizations (404)', async () => {
    const path = `/org-management/permission/organization/${w.viewer.grantId}`;
    expect((await w.developer.client.put(path, { role: 'manager' })).status).toBe(403);
    expect((await w.viewer.client.delete(path)).status).toBe(403);
    expect((await w.outsider.client.put(path, { role: 'manager' })).status).toBe(404);
    expect((await w.outsider.client.delete(path)).status).toBe(404);
    expect((await orgList(w.viewer.client, w.orgA)).body.permissions.find((p: { id: string }) => p.id === w.viewer.grantId).role).toBe(
      'viewer',
    );
  });

  it('validates the id and the role', async () => {
    const badId = await w.manager.client.put('/org-management/permission/organization/123', { role: 'viewer' });
    expect(badId.status).toBe(400);
    expect(badId.body.response).toMatch(/^id: /);
    const badRole = await w.manager.client.put(`/org-management/permission/organization/${w.viewer.grantId}`, { role: 'boss' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.response).toMatch(/^role: /);
    const noRole = await w.manager.client.put(`/org-management/permission/organization/${w.viewer.grantId}`, {});
    expect(noRole.status).toBe(400);
    expect(noRole.body.response).toMatch(/^role: /);
    expect((await w.manager.client.put(`/org-management/permission/organization/${randomUUID()}`, { role: 'viewer' })).status).toBe(404);
  });
});

const siteList = (client: TestClient, siteId: string) => client.get(`/org-management/permission/site/${siteId}`);

describe('site permissions', () => {
  it('lists the site users; site and organization managers may manage, others read', async () => {
    const res = await siteList(w.siteManager.client, w.siteA1);
    expect(res.status).toBe(200);
    expect(res.body.canManage).toBe(true);
    expect(res.body.permissions).toEqual([
      expect.objectContaining({ id: w.siteManager.grantId, email: w.siteManager.email, role: 'manager' }),
    ]);
    expect((await siteList(w.manager.client, w.siteA1)).body.canManage).toBe(true);
    expect((await siteList(w.developer.client, w.siteA1)).body.canManage).toBe(false);
    expect((await siteList(w.viewer.client, w.siteA2)).body.canManage).toBe(false);
  });

  it('answers 403 through an exhibit grant only, 404 for another organization or a site without a grant', async () => {
    expect((await siteList(w.exhibitOnly.client, w.siteA1)).status).toBe(403);
    expect((await siteList(w.outsider.client, w.siteA1)).status).toBe(404);
    expect((await siteList(w.siteManager.client, w.siteA2)).status).toBe(404);
    expect((await siteList(w.manager.client, randomUUID())).status).toBe(404);
    const bad = await w.manager.client.get('/org-management/permission/site/not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.body.response).toMatch(/^siteId: /);
  });

  it('adds a user with the default viewer role; a site manager may, an organization developer may not', async () => {
    const someone = await server.signUp();
    const res = await w.siteManager.client.post('/org-management/permission/site', { siteId: w.siteA1, email: someone.email });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: someone.id, role: 'viewer' });
    expect((await siteList(someone.client, w.siteA1)).status).toBe(200);
    expect((await siteList(someone.client, w.siteA2)).status).toBe(404);
    const twice = await w.manager.client.post('/org-management/permission/site', { siteId: w.siteA1, email: someone.email });
    expect(twice.status).toBe(409);
    expect(twice.body.response).toBe('UserAlreadyAdded');
    const other = await server.signUp();
    expect((await w.developer.client.post('/org-management/permission/site', { siteId: w.siteA1, email: other.email })).status).toBe(403);
    expect((await w.outsider.client.post('/org-management/permission/site', { siteId: w.siteA1, email: other.email })).status).toBe(404);
    const bad = await w.manager.client.post('/org-management/permission/site', { siteId: w.siteA1, email: other.email, role: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.response).toMatch(/^role: /);
  });

  it('invites an unknown email to a site by mail', async () => {
    const email = `site.invite.${randomUUID().slice(0, 8)}@example.com`;
    const res = await w.manager.client.post('/org-management/permission/site', { siteId: w.siteA2, email, role: 'developer' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, role: 'developer', accountCreated: false });
    const link = linkIn(await server.mail.waitFor(email));
    expect(link.pathname).toBe('/create-account');
    expect(link.searchParams.get('id')).toBeTruthy();
  });

  it('the most specific grant wins: an organization manager who is a site viewer cannot manage that site', async () => {
    const someone = await server.signUp();
    await grant(server.deps.db, 'organization', w.orgA, someone.id, 'MANAGER');
    await grant(server.deps.db, 'site', w.siteA2, someone.id, 'VIEWER');
    const list = await siteList(someone.client, w.siteA2);
    expect(list.body.canManage).toBe(false);
    const other = await server.signUp();
    expect((await someone.client.post('/org-management/permission/site', { siteId: w.siteA2, email: other.email })).status).toBe(403);
    expect((await someone.client.post('/org-management/permission/site', { siteId: w.siteA1, email: other.email })).status).toBe(200);
  });

  it('changes and removes site grants, never your own', async () => {
    const someone = await server.signUp();
    const grantId = await grant(server.deps.db, 'site', w.siteA1, someone.id, 'VIEWER');
    const put = await w.siteManager.client.put(`/org-management/permission/site/${grantId}`, { role: 'developer' });
    expect(put.status).toBe(200);
    expect(put.body.role).toBe('developer');
    expect((await w.viewer.client.put(`/org-management/permission/site/${grantId}`, { role: 'manager' })).status).toBe(403);
    expect((await w.outsider.client.delete(`/org-management/permission/site/${grantId}`)).status).toBe(404);
    const own = await w.siteManager.client.put(`/org-management/permission/site/${w.siteManager.grantId}`, { role: 'viewer' });
    expect(own.status).toBe(400);
    expect(own.body.response).toBe('You cannot change your own role.');
    expect((await w.siteManager.client.delete(`/org-management/permission/site/${w.siteManager.grantId}`)).status).toBe(400);
    const del = await w.siteManager.client.delete(`/org-management/permission/site/${grantId}`);
    expect(del.status).toBe(200);
    expect((await siteList(someone.client, w.siteA1)).status).toBe(404);
  });

  it('keeps organization B entirely hidden from organization A', async () => {
    expect((await siteList(w.manager.client, w.siteB1)).status).toBe(404);
    expect((await orgList(w.manager.client, w.orgB)).status).toBe(404);
    const outsiderGrant = (await orgList(w.outsider.client, w.orgB)).body.permissions[0].id;
    expect((await w.manager.client.put(`/org-management/permission/organization/${outsiderGrant}`, { role: 'viewer' })).status).toBe(404);
    expect((await w.manager.client.post('/org-management/permission/site', { siteId: w.siteB1, email: w.viewer.email })).status).toBe(404);
  });
});

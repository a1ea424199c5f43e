import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganizationListSchema, OrganizationSchema, SettingSchema, SiteListSchema } from '@plinth/shared';
import { exhibits, organizationSettings, sites } from '../../db/schema.js';
import { createExhibit, createOrganization, createWorld, uniqueName, userWith } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
});

const BAD_ID = 'not-a-uuid';
const UNKNOWN_ID = '6f1c3f7e-2a9b-4c8e-9d1a-3b5e7f9a1c2d';

describe('POST /org-management/organization', () => {
  it('lets a platform admin create an organization with its default settings', async () => {
    const name = uniqueName('Science Hall');
    const res = await admin.post('/org-management/organization', { name: `  ${name}  ` });
    expect(res.status).toBe(200);
    const org = OrganizationSchema.parse(res.body);
    expect(org).toMatchObject({ name, role: 'manager', isAdmin: true, canCreate: true, sites: [] });
    expect(org.organizationsettings.map((s) => [s.idString, s.kind, s.value])).toEqual([
      ['content_manager_config', 'contentManager', ''],
      ['analytics_config', 'analytics', ''],
      ['support_contact', 'text', ''],
      ['time_zone', 'text', 'UTC'],
      ['require_two_factor', 'switch', 'false'],
      ['audit_retention_days', 'days', '365'],
    ]);
    for (const setting of org.organizationsettings) {
      expect(setting.OrganizationId).toBe(org.id);
      expect(setting.SiteId).toBeNull();
    }
    const rows = await server.deps.db
      .select({ idString: organizationSettings.idString, inherited: organizationSettings.inherited })
      .from(organizationSettings)
      .where(eq(organizationSettings.organizationId, org.id));
    expect(Object.fromEntries(rows.map((r) => [r.idString, r.inherited]))).toEqual({
      content_manager_config: false,
      analytics_config: false,
      support_contact: true,
      time_zone: true,
      require_two_factor: false,
      audit_retention_days: false,
    });
  });

  it('refuses a name already taken, whatever its case', async () => {
    const name = uniqueName('Planetarium');
    expect((await admin.post('/org-management/organization', { name })).status).toBe(200);
    const again = await admin.post('/org-management/organization', { name: name.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      response: 'OrganizationNameAlreadyTakenException',
      code: 'OrganizationNameAlreadyTakenException',
    });
  });

  it('names the field of a bad body', async () => {
    const empty = await admin.post('/org-management/organization', { name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.response).toBe('name: must not be empty');
    const missing = await admin.post('/org-management/organization', {});
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/^name: /);
    const long = await admin.post('/org-management/organization', { name: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.response).toBe('name: must be at most 200 characters');
  });

  it('is for platform admins only, even organization managers get 403', async () => {
    const { org } = await createWorld(server);
    const manager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const res = await manager.post('/org-management/organization', { name: uniqueName('Mine') });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('Forbidden');
    expect((await server.client().post('/org-management/organization', { name: 'x' })).status).toBe(401);
  });
});

describe('GET /org-management/organization', () => {
  it('lists what each caller sees, with the role and flags of each, sorted by name', async () => {
    const { org, siteA, exhibit, other } = await createWorld(server);
    const viewer = await userWith(server, ['organization', org.id, 'VIEWER'], ['organization', other.id, 'MANAGER']);
    const res = await viewer.get('/org-management/organization');
    expect(res.status).toBe(200);
    const list = OrganizationListSchema.parse(res.body);
    expect(list.canCreate).toBe(false);
    expect(list.organizations.map((o) => o.name)).toEqual([org.name, other.name].sort((a, b) => a.localeCompare(b)));
    expect(list.organizations.find((o) => o.id === org.id)).toMatchObject({ role: 'viewer', isAdmin: false, canCreate: false });
    expect(list.organizations.find((o) => o.id === other.id)).toMatchObject({ role: 'manager', isAdmin: true, canCreate: true });

    const developer = await userWith(server, ['organization', org.id, 'DEVELOPER']);
    const [devOrg] = (await developer.get('/org-management/organization')).body.organizations;
    expect(devOrg).toMatchObject({ id: org.id, role: 'developer', isAdmin: false, canCreate: false });

    const siteOnly = await userWith(server, ['site', siteA.id, 'MANAGER']);
    const siteList = (await siteOnly.get('/org-management/organization')).body;
    expect(siteList.organizations).toEqual([
      { id: org.id, name: org.name, role: null, isAdmin: false, canCreate: false, createdAt: org.createdAt.toISOString() },
    ]);

    const exhibitOnly = await userWith(server, ['exhibit', exhibit.id, 'DEVELOPER']);
    const exhibitList = (await exhibitOnly.get('/org-management/organization')).body;
    expect(exhibitList.organizations.map((o: { id: string; role: unknown }) => [o.id, o.role])).toEqual([[org.id, null]]);
  });

  it('shows platform admins every organization and lets them create', async () => {
    const { org, other } = await createWorld(server);
    const list = OrganizationListSchema.parse((await admin.get('/org-management/organization')).body);
    expect(list.canCreate).toBe(true);
    const ids = list.organizations.map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining([org.id, other.id]));
    expect(list.organizations.every((o) => o.role === 'manager' && o.isAdmin)).toBe(true);
    const zulu = await createOrganization(server.deps.db, uniqueName('zulu'));
    const alpha = await createOrganization(server.deps.db, uniqueName('ALPHA'));
    const sorted = OrganizationListSchema.parse((await admin.get('/org-management/organization')).body).organizations;
    const indexOf = (id: string) => sorted.findIndex((o) => o.id === id);
    expect(indexOf(alpha.id)).toBeLessThan(indexOf(org.id));
    expect(indexOf(org.id)).toBeLessThan(indexOf(other.id));
    expect(indexOf(other.id)).toBeLessThan(indexOf(zulu.id));
  });

  it('shows nothing of other organizations and nothing to a user without grants', async () => {
    const { org, outsider } = await createWorld(server);
    const list = (await outsider.get('/org-management/organization')).body;
    expect(list.organizations.map((o: { id: string }) => o.id)).not.toContain(org.id);
    const nobody = await userWith(server, );
    expect((await nobody.get('/org-management/organization')).body).toEqual({ organizations: [], canCreate: false });
    expect((await server.client().get('/org-management/organization')).status).toBe(401);
  });
});

describe('GET /org-management/organization/{id}', () => {
  it('answers sites and settings to any role', async () => {
    const { org, siteA, siteB } = await createWorld(server);
    const manager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const asManager = OrganizationSchema.parse((await manager.get(`/org-management/organization/${org.id}`)).body);
    expect(asManager).toMatchObject({ id: org.id, name: org.name, role: 'manager', isAdmin: true, canCreate: true });
    expect(asManager.sites.map((s) => s.id)).toEqual([siteA.id, siteB.id]);
    expect(asManager.sites[0]).toMatchObject({ organizationName: org.name, role: 'manager', canCreate: true });
    for (const role of ['VIEWER', 'DEVELOPER'] as const) {
      const client = await userWith(server, ['organization', org.id, role]);
      const res = await client.get(`/org-management/organization/${org.id}`);
      expect(res.status).toBe(200);
      const body = OrganizationSchema.parse(res.body);
      expect(body).toMatchObject({ role: role.toLowerCase(), isAdmin: false, canCreate: false });
      expect(body.sites.map((s) => s.id)).toEqual([siteA.id, siteB.id]);
    }
  });

  it('answers 403 to a user who sees it only through a site or exhibit grant', async () => {
    const { org, siteA, exhibit } = await createWorld(server);
    const siteOnly = await userWith(server, ['site', siteA.id, 'MANAGER']);
    const res = await siteOnly.get(`/org-management/organization/${org.id}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('Forbidden');
    const exhibitOnly = await userWith(server, ['exhibit', exhibit.id, 'MANAGER']);
    expect((await exhibitOnly.get(`/org-management/organization/${org.id}`)).status).toBe(403);
  });

  it('answers 404 to users of another organization, for unknown ids, and 400 for a bad id', async () => {
    const { org, outsider } = await createWorld(server);
    const res = await outsider.get(`/org-management/organization/${org.id}`);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain(org.name);
    expect((await admin.get(`/org-management/organization/${UNKNOWN_ID}`)).status).toBe(404);
    const bad = await admin.get(`/org-management/organization/${BAD_ID}`);
    expect(bad.status).toBe(400);
    expect(bad.body.response).toBe('id: must be a valid id');
  });
});

describe('PUT /org-management/organization/{id}', () => {
  it('lets an organization manager rename it', async () => {
    const { org } = await createWorld(server);
    const manager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const name = uniqueName('Renamed');
    const res = await manager.put(`/org-management/organization/${org.id}`, { name });
    expect(res.status).toBe(200);
    expect(OrganizationSchema.parse(res.body)).toMatchObject({ id: org.id, name, isAdmin: true });
    expect((await manager.get(`/org-management/organization/${org.id}`)).body.name).toBe(name);
  });

  it('keeps names unique case-insensitively, but a new case of its own name is fine', async () => {
    const { org, other } = await createWorld(server);
    const clash = await admin.put(`/org-management/organization/${org.id}`, { name: other.name.toLowerCase() });
    expect(clash.status).toBe(409);
    expect(clash.body.response).toBe('OrganizationNameAlreadyTakenException');
    const recased = await admin.put(`/org-management/organization/${org.id}`, { name: org.name.toUpperCase() });
    expect(recased.status).toBe(200);
  });

  it('refuses developers, viewers and site managers (403), outsiders (404) and a bad body (400)', async () => {
    const { org, siteA, outsider } = await createWorld(server);
    for (const client of [
      await userWith(server, ['organization', org.id, 'DEVELOPER']),
      await userWith(server, ['organization', org.id, 'VIEWER']),
      await userWith(server, ['site', siteA.id, 'MANAGER']),
    ]) {
      expect((await client.put(`/org-management/organization/${org.id}`, { name: uniqueName('No') })).status).toBe(403);
    }
    expect((await outsider.put(`/org-management/organization/${org.id}`, { name: uniqueName('No') })).status).toBe(404);
    const bad = await admin.put(`/org-management/organization/${org.id}`, { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.response).toBe('name: must not be empty');
  });
});

describe('DELETE /org-management/organization/{id}', () => {
  it('refuses while an exhibit is locked, naming the locked exhibits, then deletes everything', async () => {
    const db = server.deps.db;
    const { org, siteA, siteB } = await createWorld(server);
    const locked = await createExhibit(db, siteB.id, 'Locked one', { manifestLocked: true });
    const manager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const refused = await manager.delete(`/org-management/organization/${org.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      response: 'This organization cannot be deleted because it contains locked exhibits.',
      code: 'LockedExhibits',
      message: 'This organization cannot be deleted because it contains locked exhibits.',
      details: { lockedExhibits: [{ id: locked.id, name: 'Locked one' }] },
    });
    expect((await manager.get(`/org-management/organization/${org.id}`)).status).toBe(200);

    await db.update(exhibits).set({ manifestLocked: false }).where(eq(exhibits.id, locked.id));
    const res = await manager.delete(`/org-management/organization/${org.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await admin.get(`/org-management/organization/${org.id}`)).status).toBe(404);
    expect(await db.select().from(sites).where(eq(sites.organizationId, org.id))).toEqual([]);
    expect(await db.select().from(exhibits).where(eq(exhibits.siteId, siteA.id))).toEqual([]);
    expect(await db.select().from(organizationSettings).where(eq(organizationSettings.organizationId, org.id))).toEqual([]);
  });

  it('refuses developers and site managers (403) and outsiders (404)', async () => {
    const { org, siteA, outsider } = await createWorld(server);
    const developer = await userWith(server, ['organization', org.id, 'DEVELOPER']);
    expect((await developer.delete(`/org-management/organization/${org.id}`)).status).toBe(403);
    const siteManager = await userWith(server, ['site', siteA.id, 'MANAGER']);
    expect((await siteManager.delete(`/org-management/organization/${org.id}`)).status).toBe(403);
    expect((await outsider.delete(`/org-management/organization/${org.id}`)).status).toBe(404);
    expect((await admin.get(`/org-management/organization/${org.id}`)).status).toBe(200);
  });
});

describe('content-manager passwords (write-only)', () => {
  const config = {
    url: 'https://cms.example.com',
    adminUser: 'admin@example.com',
    adminPassword: 'admin-secret',
    editorUser: 'editor@example.com',
    editorPassword: 'editor-secret',
    apiUser: 'api@example.com',
    apiPassword: 'api-secret',
  };
  /** What every answer shows of `config`: users and URL, and which passwords are set. */
  const shown = {
    url: config.url,
    adminUser: config.adminUser,
    adminPassword: '',
    adminPasswordSet: true,
    editorUser: config.editorUser,
    editorPassword: '',
    editorPasswordSet: true,
    apiUser: config.apiUser,
    apiPassword: '',
    apiPasswordSet: true,
  };
  const contentManagerValue = (settings: { idString: string; value: string }[]) =>
    JSON.parse(settings.find((s) => s.idString === 'content_manager_config')!.value) as Record<string, unknown>;
  const storedValue = async (organizationId: string) => {
    const [row] = await server.deps.db
      .select({ value: organizationSettings.value })
      .from(organizationSettings)
      .where(and(eq(organizationSettings.organizationId, organizationId), eq(organizationSettings.idString, 'content_manager_config')));
    return row!.value;
  };

  it('never answers a stored password, on any route that answers settings, to any role', async () => {
    const { org, siteA } = await createWorld(server);
    const manager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const saved = await manager.put(`/org-management/organization/${org.id}/setting/content_manager_config`, {
      value: JSON.stringify(config),
    });
    expect(saved.status).toBe(200);
    expect(JSON.parse(SettingSchema.parse(saved.body).value)).toEqual(shown);
    // Even if the setting were shown on the sites (inherited), the site routes present it the same way.
    await server.deps.db
      .update(organizationSettings)
      .set({ inherited: true })
      .where(and(eq(organizationSettings.organizationId, org.id), eq(organizationSettings.idString, 'content_manager_config')));

    const clients = [
      manager,
      admin,
      await userWith(server, ['organization', org.id, 'DEVELOPER']),
      await userWith(server, ['organization', org.id, 'VIEWER']),
    ];
    for (const client of clients) {
      const organization = await client.get(`/org-management/organization/${org.id}`);
      expect(organization.status).toBe(200);
      expect(contentManagerValue(OrganizationSchema.parse(organization.body).organizationsettings)).toEqual(shown);
      const site = await client.get(`/org-management/site/${siteA.id}`);
      expect(contentManagerValue(site.body.sitesettings)).toEqual(shown);
      const siteSettings = await client.get(`/org-management/site/setting/${siteA.id}`);
      expect(contentManagerValue(siteSettings.body.siteSettings)).toEqual(shown);
      for (const res of [organization, site, siteSettings, await client.get('/org-management/organization')]) {
        expect(JSON.stringify(res.body)).not.toContain('-secret');
      }
    }
    const renamed = await manager.put(`/org-management/organization/${org.id}`, { name: uniqueName('Renamed') });
    expect(renamed.status).toBe(200);
    expect(contentManagerValue(renamed.body.organizationsettings)).toEqual(shown);
    expect(JSON.stringify(renamed.body)).not.toContain('-secret');

    const stored = await storedValue(org.id);
    expect(stored).not.toContain('-secret');
    const parsed = JSON.parse(stored) as Record<string, string>;
    expect(parsed).toMatchObject({ url: config.url, adminUser: config.adminUser });
    for (const field of ['adminPassword', 'editorPassword', 'apiPassword']) expect(parsed[field]).toMatch(/^enc:v1:/);
  });

  it('keeps a password a save leaves out or empty, and removes one saved as null', async () => {
    const { org } = await createWorld(server);
    const path = `/org-management/organization/${org.id}/setting/content_manager_config`;
    expect((await admin.put(path, { value: JSON.stringify(config) })).status).toBe(200);
    const before = JSON.parse(await storedValue(org.id)) as Record<string, string>;
    const { editorPassword: _left, ...withoutEditor } = config;
    const kept = await admin.put(path, {
      value: JSON.stringify({ ...withoutEditor, adminUser: 'new-admin@example.com', adminPassword: '', apiPassword: null }),
    });
    expect(kept.status).toBe(200);
    expect(JSON.parse(kept.body.value)).toEqual({
      ...shown,
      adminUser: 'new-admin@example.com',
      apiPasswordSet: false,
    });
    const after = JSON.parse(await storedValue(org.id)) as Record<string, string>;
    expect(after.adminPassword).toBe(before.adminPassword);
    expect(after.editorPassword).toBe(before.editorPassword);
    expect(after.apiPassword).toBe('');

    const replaced = await admin.put(path, { value: JSON.stringify({ ...config, adminPassword: 'other-secret' }) });
    expect(JSON.parse(replaced.body.value)).toEqual(shown);
    expect((JSON.parse(await storedValue(org.id)) as Record<string, string>).adminPassword).not.toBe(before.adminPassword);
  });

  it('asks for the passwords again when the URL changes, so they never go to a new address unasked', async () => {
    const { org } = await createWorld(server);
    const path = `/org-management/organization/${org.id}/setting/content_manager_config`;
    expect((await admin.put(path, { value: JSON.stringify(config) })).status).toBe(200);
    const moved = await admin.put(path, {
      value: JSON.stringify({ ...config, url: 'https://attacker.example.net', adminPassword: '', editorPassword: '', apiPassword: '' }),
    });
    expect(moved.status).toBe(400);
    expect(moved.body.response).toMatch(/^value\.adminPassword: /);
    expect(JSON.parse(await storedValue(org.id)).url).toBe(config.url);
    const trailingSlash = await admin.put(path, { value: JSON.stringify({ ...config, url: `${config.url}/`, adminPassword: '' }) });
    expect(trailingSlash.status).toBe(200);
    const reentered = await admin.put(path, {
      value: JSON.stringify({ ...config, url: 'https://cms2.example.com', editorPassword: null }),
    });
    expect(reentered.status).toBe(200);
    expect(JSON.parse(reentered.body.value)).toEqual({ ...shown, url: 'https://cms2.example.com', editorPasswordSet: false });
  });
});

describe('PUT /org-management/organization/{id}/setting/{idString}', () => {
  it('saves text and config settings for an organization manager', async () => {
    const { org } = await createWorld(server);
    const manager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const text = await manager.put(`/org-management/organization/${org.id}/setting/time_zone`, { value: 'Europe/Berlin' });
    expect(text.status).toBe(200);
    expect(SettingSchema.parse(text.body)).toMatchObject({
      idString: 'time_zone',
      display: 'Time Zone',
      value: 'Europe/Berlin',
      kind: 'text',
      OrganizationId: org.id,
      SiteId: null,
    });
    const analytics = await manager.put(`/org-management/organization/${org.id}/setting/analytics_config`, {
      value: JSON.stringify({ url: 'https://stats.example.com', suiteId: 'suite-1' }),
    });
    expect(analytics.status).toBe(200);
    expect(JSON.parse(analytics.body.value)).toEqual({ url: 'https://stats.example.com', suiteId: 'suite-1', exhibitIds: '' });
    const cleared = await manager.put(`/org-management/organization/${org.id}/setting/analytics_config`, { value: '' });
    expect(cleared.body.value).toBe('');
    const read = OrganizationSchema.parse((await manager.get(`/org-management/organization/${org.id}`)).body);
    expect(read.organizationsettings.find((s) => s.idString === 'time_zone')!.value).toBe('Europe/Berlin');
  });

  it('checks config values against their schema and names the problem', async () => {
    const { org } = await createWorld(server);
    const path = `/org-management/organization/${org.id}/setting`;
    const notJson = await admin.put(`${path}/content_manager_config`, { value: '{url:' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.response).toBe('value: the content manager config must be JSON');
    const wrongType = await admin.put(`${path}/content_manager_config`, { value: JSON.stringify({ url: 5 }) });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.response).toMatch(/^value\.url: /);
    const badUrl = await admin.put(`${path}/content_manager_config`, { value: JSON.stringify({ url: 'ftp://x' }) });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.response).toMatch(/^value\.url: /);
    const analytics = await admin.put(`${path}/analytics_config`, { value: '[1]' });
    expect(analytics.status).toBe(400);
    expect(analytics.body.response).toMatch(/^value: /);
    const missing = await admin.put(`${path}/time_zone`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/^value: /);
  });

  it('answers 404 for unknown or site-only settings', async () => {
    const { org } = await createWorld(server);
    expect((await admin.put(`/org-management/organization/${org.id}/setting/nope`, { value: 'x' })).status).toBe(404);
    const siteOnly = await admin.put(`/org-management/organization/${org.id}/setting/external_report_url`, { value: '' });
    expect(siteOnly.status).toBe(404);
  });

  it('refuses developers, viewers and site managers (403) and outsiders (404)', async () => {
    const { org, siteA, outsider } = await createWorld(server);
    const path = `/org-management/organization/${org.id}/setting/time_zone`;
    for (const client of [
      await userWith(server, ['organization', org.id, 'DEVELOPER']),
      await userWith(server, ['organization', org.id, 'VIEWER']),
      await userWith(server, ['site', siteA.id, 'MANAGER']),
    ]) {
      expect((await client.put(path, { value: 'x' })).status).toBe(403);
    }
    expect((await outsider.put(path, { value: 'x' })).status).toBe(404);
  });
});

describe('GET /org-management/organization/{id}/sites', () => {
  it('answers every site to an organization role and only the granted ones otherwise', async () => {
    const { org, siteA, siteB, exhibit } = await createWorld(server);
    const viewer = await userWith(server, ['organization', org.id, 'VIEWER']);
    const all = SiteListSchema.parse((await viewer.get(`/org-management/organization/${org.id}/sites`)).body);
    expect(all.sites.map((s) => [s.id, s.role, s.canCreate])).toEqual([
      [siteA.id, 'viewer', false],
      [siteB.id, 'viewer', false],
    ]);

    const siteManager = await userWith(server, ['site', siteB.id, 'MANAGER']);
    const one = (await siteManager.get(`/org-management/organization/${org.id}/sites`)).body;
    expect(one.sites).toEqual([
      {
        id: siteB.id,
        name: 'B wing',
        organizationId: org.id,
        organizationName: org.name,
        role: 'manager',
        canCreate: true,
        createdAt: siteB.createdAt.toISOString(),
      },
    ]);

    const exhibitOnly = await userWith(server, ['exhibit', exhibit.id, 'VIEWER']);
    const throughExhibit = (await exhibitOnly.get(`/org-management/organization/${org.id}/sites`)).body;
    expect(throughExhibit.sites.map((s: { id: string; role: unknown }) => [s.id, s.role])).toEqual([[siteA.id, null]]);
  });

  it('answers 404 to outsiders and for unknown organizations', async () => {
    const { org, outsider } = await createWorld(server);
    expect((await outsider.get(`/org-management/organization/${org.id}/sites`)).status).toBe(404);
    expect((await admin.get(`/org-management/organization/${UNKNOWN_ID}/sites`)).status).toBe(404);
    expect((await admin.get(`/org-management/organization/${BAD_ID}/sites`)).status).toBe(400);
  });
});

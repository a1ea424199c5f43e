import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_URL_PREFIX, SettingSchema, SiteListSchema, SiteSchema, SiteSettingsSchema } from '@plinth/shared';
import { exhibits, hardware, siteSettings, sites } from '../../db/schema.js';
import { createExhibit, createWorld, userWith } from '../../test/factories.js';
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
const REPORT_URL = `${DEFAULT_REPORT_URL_PREFIX}reporting/abc`;

describe('GET /org-management/site', () => {
  it('lists visible sites with the effective role: the most specific grant wins', async () => {
    const { org, siteA, siteB, exhibit, otherSite } = await createWorld(server);
    const viewer = await userWith(server, ['organization', org.id, 'VIEWER'], ['site', siteB.id, 'MANAGER']);
    const res = await viewer.get('/org-management/site');
    expect(res.status).toBe(200);
    const list = SiteListSchema.parse(res.body);
    expect(list.sites.map((s) => [s.id, s.role, s.canCreate])).toEqual([
      [siteA.id, 'viewer', false],
      [siteB.id, 'manager', true],
    ]);
    expect(list.sites[0]).toEqual({
      id: siteA.id,
      name: 'A wing',
      organizationId: org.id,
      organizationName: org.name,
      role: 'viewer',
      canCreate: false,
      createdAt: siteA.createdAt.toISOString(),
    });

    const siteDeveloper = await userWith(server, ['site', siteA.id, 'DEVELOPER']);
    expect((await siteDeveloper.get('/org-management/site')).body.sites.map((s: { id: string; role: string }) => [s.id, s.role])).toEqual([
      [siteA.id, 'developer'],
    ]);

    const exhibitOnly = await userWith(server, ['exhibit', exhibit.id, 'MANAGER']);
    const throughExhibit = (await exhibitOnly.get('/org-management/site')).body.sites;
    expect(throughExhibit.map((s: { id: string; role: unknown; canCreate: boolean }) => [s.id, s.role, s.canCreate])).toEqual([
      [siteA.id, null, false],
    ]);

    const all = SiteListSchema.parse((await admin.get('/org-management/site')).body);
    expect(all.sites.map((s) => s.id)).toEqual(expect.arrayContaining([siteA.id, siteB.id, otherSite.id]));
  });

  it('shows nothing of other organizations', async () => {
    const { siteA, siteB, otherSite, outsider } = await createWorld(server);
    const ids = (await outsider.get('/org-management/site')).body.sites.map((s: { id: string }) => s.id);
    expect(ids).toEqual([otherSite.id]);
    expect(ids).not.toContain(siteA.id);
    expect(ids).not.toContain(siteB.id);
    expect((await (await userWith(server, )).get('/org-management/site')).body).toEqual({ sites: [] });
    expect((await server.client().get('/org-management/site')).status).toBe(401);
  });
});

describe('POST /org-management/site', () => {
  it('lets an organization manager create a site with its settings', async () => {
    const { org } = await createWorld(server);
    const manager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const res = await manager.post('/org-management/site', { name: ' Atrium ', organizationId: org.id });
    expect(res.status).toBe(200);
    const site = SiteSchema.parse(res.body);
    expect(site).toMatchObject({
      name: 'Atrium',
      organizationId: org.id,
      organizationName: org.name,
      role: 'manager',
      canCreate: true,
    });
    expect(site.sitesettings.map((s) => [s.idString, s.kind, s.OrganizationId, s.SiteId])).toEqual([
      ['support_contact', 'text', org.id, null],
      ['time_zone', 'text', org.id, null],
      ['external_report_url', 'reportUrl', null, site.id],
      ['site_location', 'text', null, site.id],
      ['opening_hours', 'text', null, site.id],
      ['site_time_zone', 'timeZone', null, site.id],
    ]);
    const rows = await server.deps.db.select().from(siteSettings).where(eq(siteSettings.siteId, site.id));
    expect(rows).toHaveLength(4);
  });

  it('refuses developers and site managers (403), outsiders and unknown organizations (404)', async () => {
    const { org, siteA, exhibit, outsider } = await createWorld(server);
    for (const client of [
      await userWith(server, ['organization', org.id, 'DEVELOPER']),
      await userWith(server, ['organization', org.id, 'VIEWER']),
      await userWith(server, ['site', siteA.id, 'MANAGER']),
      await userWith(server, ['exhibit', exhibit.id, 'MANAGER']),
    ]) {
      const res = await client.post('/org-management/site', { name: 'Nope', organizationId: org.id });
      expect(res.status).toBe(403);
    }
    expect((await outsider.post('/org-management/site', { name: 'Nope', organizationId: org.id })).status).toBe(404);
    expect((await admin.post('/org-management/site', { name: 'Nope', organizationId: UNKNOWN_ID })).status).toBe(404);
    const names = (await server.deps.db.select({ name: sites.name }).from(sites).where(eq(sites.organizationId, org.id))).map(
      (r) => r.name,
    );
    expect(names).not.toContain('Nope');
  });

  it('names the field of a bad body', async () => {
    const { org } = await createWorld(server);
    const empty = await admin.post('/org-management/site', { name: '', organizationId: org.id });
    expect(empty.status).toBe(400);
    expect(empty.body.response).toBe('name: must not be empty');
    const badOrg = await admin.post('/org-management/site', { name: 'X', organizationId: 'x' });
    expect(badOrg.status).toBe(400);
    expect(badOrg.body.response).toBe('organizationId: must be a valid id');
    const missing = await admin.post('/org-management/site', { name: 'X' });
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/^organizationId: /);
  });
});

describe('GET /org-management/site/{id}', () => {
  it('answers the site with its role and settings', async () => {
    const { org, siteA } = await createWorld(server);
    const viewer = await userWith(server, ['organization', org.id, 'VIEWER']);
    const res = await viewer.get(`/org-management/site/${siteA.id}`);
    expect(res.status).toBe(200);
    const site = SiteSchema.parse(res.body);
    expect(site).toMatchObject({ id: siteA.id, name: 'A wing', role: 'viewer', canCreate: false });
    expect(site.sitesettings.map((s) => s.idString)).toEqual([
      'support_contact',
      'time_zone',
      'external_report_url',
      'site_location',
      'opening_hours',
      'site_time_zone',
    ]);
    const siteManager = await userWith(server, ['organization', org.id, 'VIEWER'], ['site', siteA.id, 'MANAGER']);
    expect((await siteManager.get(`/org-management/site/${siteA.id}`)).body).toMatchObject({ role: 'manager', canCreate: true });
  });

  it('answers a site seen only through an exhibit grant with role null and no settings', async () => {
    const { siteA, exhibit } = await createWorld(server);
    const exhibitOnly = await userWith(server, ['exhibit', exhibit.id, 'MANAGER']);
    const res = await exhibitOnly.get(`/org-management/site/${siteA.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: siteA.id, role: null, canCreate: false, sitesettings: [] });
  });

  it('answers 404 to outsiders, to a site manager for a sibling site, and for unknown ids; 400 for a bad id', async () => {
    const { siteA, siteB, outsider } = await createWorld(server);
    const res = await outsider.get(`/org-management/site/${siteA.id}`);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('A wing');
    const siteManager = await userWith(server, ['site', siteB.id, 'MANAGER']);
    expect((await siteManager.get(`/org-management/site/${siteA.id}`)).status).toBe(404);
    expect((await admin.get(`/org-management/site/${UNKNOWN_ID}`)).status).toBe(404);
    const bad = await admin.get(`/org-management/site/${BAD_ID}`);
    expect(bad.status).toBe(400);
    expect(bad.body.response).toBe('id: must be a valid id');
  });
});

describe('PUT /org-management/site/{id}', () => {
  it('lets site and organization managers rename it', async () => {
    const { org, siteA } = await createWorld(server);
    const siteManager = await userWith(server, ['site', siteA.id, 'MANAGER']);
    const res = await siteManager.put(`/org-management/site/${siteA.id}`, { name: 'East wing' });
    expect(res.status).toBe(200);
    expect(SiteSchema.parse(res.body)).toMatchObject({ id: siteA.id, name: 'East wing', role: 'manager' });
    const orgManager = await userWith(server, ['organization', org.id, 'MANAGER']);
    const again = await orgManager.put(`/org-management/site/${siteA.id}`, { name: 'West wing' });
    expect(again.status).toBe(200);
    expect((await admin.get(`/org-management/site/${siteA.id}`)).body.name).toBe('West wing');
  });

  it('refuses developers and exhibit-only users (403), outsiders (404) and a bad body (400)', async () => {
    const { org, siteA, exhibit, outsider } = await createWorld(server);
    for (const client of [
      await userWith(server, ['organization', org.id, 'MANAGER'], ['site', siteA.id, 'DEVELOPER']),
      await userWith(server, ['site', siteA.id, 'VIEWER']),
      await userWith(server, ['exhibit', exhibit.id, 'MANAGER']),
    ]) {
      expect((await client.put(`/org-management/site/${siteA.id}`, { name: 'Nope' })).status).toBe(403);
    }
    expect((await outsider.put(`/org-management/site/${siteA.id}`, { name: 'Nope' })).status).toBe(404);
    const bad = await admin.put(`/org-management/site/${siteA.id}`, { name: 'x'.repeat(201) });
    expect(bad.status).toBe(400);
    expect(bad.body.response).toBe('name: must be at most 200 characters');
    expect((await admin.get(`/org-management/site/${siteA.id}`)).body.name).toBe('A wing');
  });
});

describe('DELETE /org-management/site/{id}', () => {
  it('refuses while an exhibit is locked, then deletes the site with its exhibits and hardware', async () => {
    const db = server.deps.db;
    const { siteA, exhibit } = await createWorld(server);
    const locked = await createExhibit(db, siteA.id, 'Locked one', { manifestLocked: true });
    const [board] = await db.insert(hardware).values({ siteId: siteA.id, name: 'Board' }).returning();
    const siteManager = await userWith(server, ['site', siteA.id, 'MANAGER']);
    const refused = await siteManager.delete(`/org-management/site/${siteA.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      response: 'This site cannot be deleted because it contains locked exhibits.',
      code: 'LockedExhibits',
      message: 'This site cannot be deleted because it contains locked exhibits.',
      details: { lockedExhibits: [{ id: locked.id, name: 'Locked one' }] },
    });

    await db.update(exhibits).set({ manifestLocked: false }).where(eq(exhibits.id, locked.id));
    const res = await siteManager.delete(`/org-management/site/${siteA.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await admin.get(`/org-management/site/${siteA.id}`)).status).toBe(404);
    expect(await db.select().from(exhibits).where(eq(exhibits.id, exhibit.id))).toEqual([]);
    expect(await db.select().from(hardware).where(eq(hardware.id, board!.id))).toEqual([]);
  });

  it('refuses developers (403) and outsiders (404)', async () => {
    const { org, siteA, outsider } = await createWorld(server);
    const developer = await userWith(server, ['organization', org.id, 'DEVELOPER']);
    expect((await developer.delete(`/org-management/site/${siteA.id}`)).status).toBe(403);
    expect((await outsider.delete(`/org-management/site/${siteA.id}`)).status).toBe(404);
    expect((await admin.get(`/org-management/site/${siteA.id}`)).status).toBe(200);
  });
});

describe('GET /org-management/site/setting/{siteId}', () => {
  it('answers the inherited organization settings then the site own ones', async () => {
    const { org, siteA } = await createWorld(server);
    await admin.put(`/org-management/organization/${org.id}/setting/time_zone`, { value: 'Europe/Paris' });
    const viewer = await userWith(server, ['site', siteA.id, 'VIEWER']);
    const res = await viewer.get(`/org-management/site/setting/${siteA.id}`);
    expect(res.status).toBe(200);
    const { siteSettings: settings } = SiteSettingsSchema.parse(res.body);
    expect(settings.map((s) => [s.idString, s.value, s.OrganizationId, s.SiteId])).toEqual([
      ['support_contact', '', org.id, null],
      ['time_zone', 'Europe/Paris', org.id, null],
      ['external_report_url', '', null, siteA.id],
      ['site_location', '', null, siteA.id],
      ['opening_hours', '', null, siteA.id],
      ['site_time_zone', '', null, siteA.id],
    ]);
  });

  it('refuses exhibit-only users (403) and outsiders (404)', async () => {
    const { siteA, exhibit, outsider } = await createWorld(server);
    const exhibitOnly = await userWith(server, ['exhibit', exhibit.id, 'MANAGER']);
    expect((await exhibitOnly.get(`/org-management/site/setting/${siteA.id}`)).status).toBe(403);
    expect((await outsider.get(`/org-management/site/setting/${siteA.id}`)).status).toBe(404);
    expect((await admin.get(`/org-management/site/setting/${BAD_ID}`)).body.response).toBe('siteId: must be a valid id');
  });
});

describe('PUT /org-management/site/setting/{siteId}/{idString}', () => {
  it('lets developers save the site settings', async () => {
    const { org, siteA } = await createWorld(server);
    const developer = await userWith(server, ['organization', org.id, 'DEVELOPER']);
    const res = await developer.put(`/org-management/site/setting/${siteA.id}/site_location`, { value: 'Floor 2' });
    expect(res.status).toBe(200);
    expect(SettingSchema.parse(res.body)).toMatchObject({
      idString: 'site_location',
      display: 'Location',
      value: 'Floor 2',
      kind: 'text',
      OrganizationId: null,
      SiteId: siteA.id,
    });
    const report = await developer.put(`/org-management/site/setting/${siteA.id}/external_report_url`, { value: REPORT_URL });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ kind: 'reportUrl', value: REPORT_URL });
    const cleared = await developer.put(`/org-management/site/setting/${siteA.id}/external_report_url`, { value: '' });
    expect(cleared.body.value).toBe('');
    const read = (await developer.get(`/org-management/site/setting/${siteA.id}`)).body.siteSettings;
    expect(read.find((s: { idString: string }) => s.idString === 'site_location').value).toBe('Floor 2');
  });

  it('refuses inherited organization settings with the organization-level message', async () => {
    const { siteA } = await createWorld(server);
    const res = await admin.put(`/org-management/site/setting/${siteA.id}/time_zone`, { value: 'UTC' });
    expect(res.status).toBe(403);
    expect(res.body.response).toBe('This field may only be modified at the organization level.');
    const notInherited = await admin.put(`/org-management/site/setting/${siteA.id}/content_manager_config`, { value: '' });
    expect(notInherited.status).toBe(404);
    expect((await admin.put(`/org-management/site/setting/${siteA.id}/nope`, { value: '' })).status).toBe(404);
  });

  it('requires the report URL to start with the allowed prefix', async () => {
    const { siteA } = await createWorld(server);
    const res = await admin.put(`/org-management/site/setting/${siteA.id}/external_report_url`, {
      value: 'https://evil.example.com/embed/x',
    });
    expect(res.status).toBe(400);
    expect(res.body.response).toBe(`The site report URL must start with ${DEFAULT_REPORT_URL_PREFIX}`);
    const missing = await admin.put(`/org-management/site/setting/${siteA.id}/site_location`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/^value: /);
  });

  it('refuses viewers and exhibit-only users (403) and outsiders (404)', async () => {
    const { org, siteA, exhibit, outsider } = await createWorld(server);
    const path = `/org-management/site/setting/${siteA.id}/site_location`;
    for (const client of [
      await userWith(server, ['organization', org.id, 'MANAGER'], ['site', siteA.id, 'VIEWER']),
      await userWith(server, ['exhibit', exhibit.id, 'MANAGER']),
    ]) {
      expect((await client.put(path, { value: 'x' })).status).toBe(403);
    }
    expect((await outsider.put(path, { value: 'x' })).status).toBe(404);
    const value = (await admin.get(`/org-management/site/setting/${siteA.id}`)).body.siteSettings.find(
      (s: { idString: string }) => s.idString === 'site_location',
    ).value;
    expect(value).toBe('');
  });
});

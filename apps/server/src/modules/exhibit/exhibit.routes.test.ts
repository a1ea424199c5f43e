import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MQTT_PATH_MESSAGE } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibits } from '../../db/schema.js';
import { createExhibit, createOrganization, createSite, eventsDuring, uniqueName, userWith } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
let db: Db;

async function setExhibit(id: string, values: Partial<typeof exhibits.$inferInsert>): Promise<void> {
  await db.update(exhibits).set(values).where(eq(exhibits.id, id));
}

const BASE = '/exhibit-management/exhibit';

let orgA: string;
let orgAName: string;
let siteA1: string;
let siteA2: string;
let siteB1: string;
let volcano: string;
let glacier: string;
let reef: string;
let bExhibit: string;
let manager: TestClient;
let developer: TestClient;
let viewer: TestClient;
let exhibitViewer: TestClient;
let exhibitDeveloper: TestClient;
let outsider: TestClient;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  db = server.deps.db;
  const org = await createOrganization(db, uniqueName('Science Museum'));
  orgA = org.id;
  orgAName = org.name;
  siteA1 = (await createSite(db, orgA, 'Earth Hall')).id;
  siteA2 = (await createSite(db, orgA, 'Ocean Hall')).id;
  const orgB = (await createOrganization(db, uniqueName('Art Museum'))).id;
  siteB1 = (await createSite(db, orgB, 'Gallery')).id;
  volcano = (await createExhibit(db, siteA1, 'Volcano')).id;
  glacier = (await createExhibit(db, siteA1, 'Glacier')).id;
  reef = (await createExhibit(db, siteA2, 'Reef')).id;
  bExhibit = (await createExhibit(db, siteB1, 'Painting')).id;
  manager = await userWith(server, ['organization', orgA, 'MANAGER']);
  developer = await userWith(server, ['organization', orgA, 'DEVELOPER']);
  viewer = await userWith(server, ['organization', orgA, 'VIEWER']);
  exhibitViewer = await userWith(server, ['exhibit', volcano, 'VIEWER']);
  exhibitDeveloper = await userWith(server, ['exhibit', volcano, 'DEVELOPER']);
  outsider = await userWith(server, ['organization', orgB, 'MANAGER']);
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
});
afterAll(async () => {
  await server?.stop();
});

const ids = (body: { exhibits: { id: string }[] }) => body.exhibits.map((e) => e.id).sort();

describe('GET /exhibit-management/exhibit', () => {
  it('lists every exhibit the caller may see, with names and the effective role', async () => {
    const res = await developer.get(BASE);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([volcano, glacier, reef].sort());
    const v = res.body.exhibits.find((e: { id: string }) => e.id === volcano);
    expect(v).toMatchObject({
      name: 'Volcano',
      siteId: siteA1,
      siteName: 'Earth Hall',
      organizationId: orgA,
      organizationName: orgAName,
      mqttPath: '',
      leaderId: null,
      leader: null,
      manifestLocked: false,
      online: false,
      opMode: 'Off',
      op_mode: false,
      lastOnlineChange: null,
      followers: [],
      role: 'DEVELOPER',
    });
    expect(new Date(v.createdAt).toString()).not.toBe('Invalid Date');
  });

  it('shows an exhibit grant only its exhibit, another organization only its own, an admin everything', async () => {
    expect(ids((await exhibitViewer.get(BASE)).body)).toEqual([volcano]);
    expect((await exhibitViewer.get(BASE)).body.exhibits[0].role).toBe('VIEWER');
    expect(ids((await outsider.get(BASE)).body)).toEqual([bExhibit]);
    const all = ids((await admin.get(BASE)).body);
    expect(all).toEqual(expect.arrayContaining([volcano, glacier, reef, bExhibit]));
    expect((await admin.get(BASE)).body.exhibits.every((e: { role: string }) => e.role === 'MANAGER')).toBe(true);
    expect((await server.client().get(BASE)).status).toBe(401);
  });

  it('uses the most specific grant: an organization viewer with an exhibit developer grant develops that exhibit', async () => {
    const client = await userWith(
      server,
      ['organization', orgA, 'VIEWER'],
      ['site', siteA2, 'MANAGER'],
      ['exhibit', glacier, 'DEVELOPER'],
    );
    const roles = Object.fromEntries((await client.get(BASE)).body.exhibits.map((e: { id: string; role: string }) => [e.id, e.role]));
    expect(roles).toEqual({ [volcano]: 'VIEWER', [glacier]: 'DEVELOPER', [reef]: 'MANAGER' });
  });
});

describe('GET /exhibit-management/exhibit/by-site-ids/', () => {
  it('answers the visible exhibits of the sites asked for (repeated siteId)', async () => {
    const res = await developer.get(`${BASE}/by-site-ids/?siteId=${siteA1}&siteId=${siteB1}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([volcano, glacier].sort());
    const one = await developer.get(`${BASE}/by-site-ids/?siteId=${siteA2}`);
    expect(ids(one.body)).toEqual([reef]);
    const bare = await developer.get(`${BASE}/by-site-ids?siteId=${siteA2}`);
    expect(ids(bare.body)).toEqual([reef]);
    expect(ids((await exhibitViewer.get(`${BASE}/by-site-ids/?siteId=${siteA1}&siteId=${siteA2}`)).body)).toEqual([volcano]);
    expect(ids((await outsider.get(`${BASE}/by-site-ids/?siteId=${siteA1}`)).body)).toEqual([]);
  });

  it('names the bad field', async () => {
    const bad = await developer.get(`${BASE}/by-site-ids/?siteId=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.response).toMatch(/^siteId/);
    const missing = await developer.get(`${BASE}/by-site-ids/`);
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/siteId/);
  });
});

describe('POST /exhibit-management/exhibit', () => {
  it('lets a developer create an exhibit, optionally with its MQTT address', async () => {
    const res = await developer.post(BASE, { name: '  Tornado ', siteId: siteA2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Tornado', siteId: siteA2, siteName: 'Ocean Hall', role: 'DEVELOPER', mqttPath: '' });
    expect((await viewer.get(`${BASE}/${res.body.id}`)).status).toBe(200);
    const withPath = await manager.post(BASE, { name: 'Quake', siteId: siteA2, mqttPath: '10.0.0.5:1883' });
    expect(withPath.status).toBe(200);
    expect(withPath.body).toMatchObject({ mqttPath: '10.0.0.5:1883', role: 'MANAGER' });
  });

  it('refuses viewers and exhibit-only grants (403) and another organization (404)', async () => {
    expect((await viewer.post(BASE, { name: 'No', siteId: siteA1 })).status).toBe(403);
    expect((await exhibitDeveloper.post(BASE, { name: 'No', siteId: siteA1 })).status).toBe(403);
    const other = await outsider.post(BASE, { name: 'No', siteId: siteA1 });
    expect(other.status).toBe(404);
    expect((await developer.post(BASE, { name: 'No', siteId: randomUUID() })).status).toBe(404);
    const names = (await admin.get(BASE)).body.exhibits.map((e: { name: string }) => e.name);
    expect(names).not.toContain('No');
  });

  it('validates name, siteId and the MQTT address', async () => {
    const empty = await developer.post(BASE, { name: '   ', siteId: siteA1 });
    expect(empty.status).toBe(400);
    expect(empty.body.response).toMatch(/^name: /);
    const site = await developer.post(BASE, { name: 'X' });
    expect(site.status).toBe(400);
    expect(site.body.response).toMatch(/^siteId: /);
    const path = await developer.post(BASE, { name: 'X', siteId: siteA1, mqttPath: '1.2.3:80' });
    expect(path.status).toBe(400);
    expect(path.body.response).toBe(`mqttPath: ${MQTT_PATH_MESSAGE}`);
  });
});

describe('GET /exhibit-management/exhibit/{id}', () => {
  it('answers a visible exhibit, 404 to an invisible or unknown one, 400 to a bad id', async () => {
    expect((await exhibitViewer.get(`${BASE}/${volcano}`)).status).toBe(200);
    expect((await exhibitViewer.get(`${BASE}/${glacier}`)).status).toBe(404);
    const other = await outsider.get(`${BASE}/${volcano}`);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain('Volcano');
    expect((await developer.get(`${BASE}/${randomUUID()}`)).status).toBe(404);
    const bad = await developer.get(`${BASE}/xyz`);
    expect(bad.status).toBe(400);
    expect(bad.body.response).toMatch(/^id: /);
  });

  it('reads op mode Off while the exhibit is offline', async () => {
    const id = (await createExhibit(db, siteA2, 'Mode test', { opMode: 'On', online: false })).id;
    expect((await developer.get(`${BASE}/${id}`)).body).toMatchObject({ opMode: 'Off', op_mode: false, online: false });
    const changed = new Date('2026-01-02T03:04:05.000Z');
    await setExhibit(id, { online: true, lastOnlineChange: changed });
    expect((await developer.get(`${BASE}/${id}`)).body).toMatchObject({
      opMode: 'On',
      op_mode: true,
      online: true,
      lastOnlineChange: changed.toISOString(),
    });
  });
});

describe('PUT /exhibit-management/exhibit/{id}', () => {
  it('renames (developer), refuses viewers (403) and other organizations (404), and publishes exhibit.updated', async () => {
    const id = (await createExhibit(db, siteA1, 'Old name')).id;
    const events = await eventsDuring(server, 'exhibit', id, async () => {
      const res = await developer.put(`${BASE}/${id}`, { name: 'New name' });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('New name');
    });
    expect(events).toEqual([{ type: 'exhibit.updated', exhibitId: id }]);
    expect((await viewer.put(`${BASE}/${id}`, { name: 'Viewer name' })).status).toBe(403);
    expect((await exhibitViewer.put(`${BASE}/${volcano}`, { name: 'Viewer name' })).status).toBe(403);
    expect((await outsider.put(`${BASE}/${id}`, { name: 'Outsider name' })).status).toBe(404);
    expect((await developer.get(`${BASE}/${id}`)).body.name).toBe('New name');
  });

  it('lets an exhibit developer edit their exhibit', async () => {
    const res = await exhibitDeveloper.put(`${BASE}/${volcano}`, { mqttPath: '192.168.1.20:1883' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mqttPath: '192.168.1.20:1883', role: 'DEVELOPER' });
  });

  it('accepts the MQTT address forms of the spec and refuses others with its message', async () => {
    const id = (await createExhibit(db, siteA1, 'Address test')).id;
    for (const ok of ['192.168.0.1:1883', '{ip}:0', '', '0.0.0.0:65535']) {
      const res = await developer.put(`${BASE}/${id}`, { mqttPath: ok });
      expect(res.status, ok).toBe(200);
      expect(res.body.mqttPath).toBe(ok);
    }
    for (const bad of ['256.1.1.1:80', '1.2.3.4:0', '1.2.3.4:70000', '1.2.3.4', 'host:80']) {
      const res = await developer.put(`${BASE}/${id}`, { mqttPath: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.response).toBe(`mqttPath: ${MQTT_PATH_MESSAGE}`);
    }
  });

  it('locks and unlocks (developer, not viewer)', async () => {
    const id = (await createExhibit(db, siteA1, 'Lock test')).id;
    expect((await viewer.put(`${BASE}/${id}`, { manifestLocked: true })).status).toBe(403);
    const locked = await developer.put(`${BASE}/${id}`, { manifestLocked: true });
    expect(locked.body.manifestLocked).toBe(true);
    const unlocked = await developer.put(`${BASE}/${id}`, { manifestLocked: false });
    expect(unlocked.body.manifestLocked).toBe(false);
  });

  it('refuses an empty body and bad fields', async () => {
    const empty = await developer.put(`${BASE}/${glacier}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.response).toMatch(/one of name, mqttPath, leaderId, manifestLocked is required/);
    const name = await developer.put(`${BASE}/${glacier}`, { name: '' });
    expect(name.status).toBe(400);
    expect(name.body.response).toMatch(/^name: /);
    const lock = await developer.put(`${BASE}/${glacier}`, { manifestLocked: 'yes' });
    expect(lock.status).toBe(400);
    expect(lock.body.response).toMatch(/^manifestLocked: /);
  });

  it('sets a leader of the same site and shows leader and followers; refuses the invalid ones', async () => {
    const leader = (await createExhibit(db, siteA1, 'Leader')).id;
    const follower = (await createExhibit(db, siteA1, 'Follower', { online: true, opMode: 'On' })).id;
    const third = (await createExhibit(db, siteA1, 'Third')).id;
    const elsewhere = (await createExhibit(db, siteA2, 'Elsewhere')).id;
    const events = await eventsDuring(server, 'exhibit', leader, async () => {
      const res = await developer.put(`${BASE}/${follower}`, { leaderId: leader });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ leaderId: leader, leader: { id: leader, name: 'Leader' } });
    });
    expect(events).toEqual([{ type: 'exhibit.updated', exhibitId: leader }]);
    const lead = await developer.get(`${BASE}/${leader}`);
    expect(lead.body.followers).toEqual([{ id: follower, name: 'Follower', online: true, opMode: 'On' }]);

    const self = await developer.put(`${BASE}/${third}`, { leaderId: third });
    expect(self.status).toBe(400);
    expect(self.body.response).toMatch(/^leaderId: .*own leader/);
    const followerAsLeader = await developer.put(`${BASE}/${third}`, { leaderId: follower });
    expect(followerAsLeader.status).toBe(400);
    expect(followerAsLeader.body.response).toMatch(/^leaderId: Follower follows another exhibit/);
    const leaderFollows = await developer.put(`${BASE}/${leader}`, { leaderId: third });
    expect(leaderFollows.status).toBe(400);
    expect(leaderFollows.body.response).toMatch(/^leaderId: this exhibit leads other exhibits/);
    const otherSite = await developer.put(`${BASE}/${third}`, { leaderId: elsewhere });
    expect(otherSite.status).toBe(400);
    expect(otherSite.body.response).toMatch(/^leaderId: .*same site/);
    const unknown = await developer.put(`${BASE}/${third}`, { leaderId: randomUUID() });
    expect(unknown.status).toBe(400);
    expect((await viewer.put(`${BASE}/${third}`, { leaderId: leader })).status).toBe(403);

    const cleared = await developer.put(`${BASE}/${follower}`, { leaderId: null });
    expect(cleared.body).toMatchObject({ leaderId: null, leader: null });
    expect((await developer.get(`${BASE}/${leader}`)).body.followers).toEqual([]);
  });

  it('does not leak the name of a leader the caller cannot see', async () => {
    const leader = (await createExhibit(db, siteA1, 'Secret leader')).id;
    const follower = (await createExhibit(db, siteA1, 'Visible follower', { leaderId: leader })).id;
    const client = await userWith(server, ['exhibit', follower, 'VIEWER']);
    const res = await client.get(`${BASE}/${follower}`);
    expect(res.status).toBe(200);
    expect(res.body.leaderId).toBe(leader);
    expect(res.body.leader).toBeNull();
    expect(JSON.stringify(res.body)).not.toContain('Secret leader');
  });
});

describe('DELETE /exhibit-management/exhibit/{id}', () => {
  it('lets a developer delete, refuses viewers (403) and other organizations (404), and publishes exhibit.deleted', async () => {
    const id = (await createExhibit(db, siteA1, 'Doomed')).id;
    expect((await viewer.delete(`${BASE}/${id}`)).status).toBe(403);
    expect((await outsider.delete(`${BASE}/${id}`)).status).toBe(404);
    const events = await eventsDuring(server, 'exhibit', id, async () => {
      const res = await developer.delete(`${BASE}/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    });
    expect(events).toEqual([{ type: 'exhibit.deleted', exhibitId: id }]);
    expect((await developer.get(`${BASE}/${id}`)).status).toBe(404);
    expect((await developer.delete(`${BASE}/${id}`)).status).toBe(404);
  });

  it('refuses a locked exhibit with 409 LockedExhibits naming it', async () => {
    const id = (await createExhibit(db, siteA1, 'Locked one', { manifestLocked: true })).id;
    const res = await manager.delete(`${BASE}/${id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      response: 'This exhibit cannot be deleted because it is locked.',
      code: 'LockedExhibits',
      message: 'This exhibit cannot be deleted because it is locked.',
      details: { lockedExhibits: [{ id, name: 'Locked one' }] },
    });
    expect((await manager.get(`${BASE}/${id}`)).status).toBe(200);
  });

  it('frees the followers of a deleted leader', async () => {
    const leader = (await createExhibit(db, siteA1, 'Departing leader')).id;
    const follower = (await createExhibit(db, siteA1, 'Orphan', { leaderId: leader })).id;
    const events = await eventsDuring(server, 'exhibit', follower, async () => {
      expect((await developer.delete(`${BASE}/${leader}`)).status).toBe(200);
    });
    expect(events).toEqual([{ type: 'exhibit.updated', exhibitId: follower }]);
    expect((await developer.get(`${BASE}/${follower}`)).body).toMatchObject({ leaderId: null, leader: null });
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import { hardware } from '../../db/schema.js';
import { createExhibit, createHardware, createOrganization, createSite, eventsDuring, uniqueName, userWith } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
let db: Db;

const BASE = '/hardware-mgmt/hardware';
const peripherals = [
  { id: 'p1', name: 'LED strip', props: [{ name: 'color', type: 'rgb', value: '#ff0000', settable: 'true', hide: 'false', min: null, max: null, displayType: null }] },
  { id: 'p2', name: 'Button', props: [] },
];

let orgA: string;
let siteA1: string;
let siteA2: string;
let siteB1: string;
let exhibitA1: string;
let exhibitA2: string;
let board: string;
let spare: string;
let ocean: string;
let bBoard: string;
let developer: TestClient;
let viewer: TestClient;
let exhibitViewer: TestClient;
let outsider: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  db = server.deps.db;
  orgA = (await createOrganization(db, uniqueName('Science Museum'))).id;
  siteA1 = (await createSite(db, orgA, 'Earth Hall')).id;
  siteA2 = (await createSite(db, orgA, 'Ocean Hall')).id;
  const orgB = (await createOrganization(db, uniqueName('Art Museum'))).id;
  siteB1 = (await createSite(db, orgB, 'Gallery')).id;
  exhibitA1 = (await createExhibit(db, siteA1, 'Volcano')).id;
  exhibitA2 = (await createExhibit(db, siteA2, 'Reef')).id;
  board = (await createHardware(db, siteA1, 'Volcano board', {
    exhibitId: exhibitA1,
    online: true,
    ip: '10.0.0.7',
    plinthFw: '47',
    voltage: 4.9,
    uptime: 12,
    peripherals,
  })).id;
  spare = (await createHardware(db, siteA1, 'Spare board')).id;
  ocean = (await createHardware(db, siteA2, 'Ocean board')).id;
  bBoard = (await createHardware(db, siteB1, 'Gallery board')).id;
  developer = await userWith(server, ['organization', orgA, 'DEVELOPER']);
  viewer = await userWith(server, ['organization', orgA, 'VIEWER']);
  exhibitViewer = await userWith(server, ['exhibit', exhibitA1, 'VIEWER']);
  outsider = await userWith(server, ['organization', orgB, 'MANAGER']);
});
afterAll(async () => {
  await server?.stop();
});

const ids = (body: { hardware: { id: string }[] }) => body.hardware.map((h) => h.id).sort();

describe('GET /hardware-mgmt/hardware/', () => {
  it('lists a site with names, connection, peripherals and the role', async () => {
    const res = await developer.get(`${BASE}/?siteId=${siteA1}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([board, spare].sort());
    const h = res.body.hardware.find((x: { id: string }) => x.id === board);
    expect(h).toMatchObject({
      name: 'Volcano board',
      siteId: siteA1,
      siteName: 'Earth Hall',
      organizationId: orgA,
      exhibitId: exhibitA1,
      exhibitName: 'Volcano',
      connected: true,
      online: true,
      controlDebug: false,
      ip: '10.0.0.7',
      plinth_fw: '47',
      voltage: 4.9,
      uptime: 12,
      numPeripherals: 2,
      peripherals,
      firmware: null,
      role: 'DEVELOPER',
    });
    const s = res.body.hardware.find((x: { id: string }) => x.id === spare);
    expect(s).toMatchObject({ exhibitId: null, exhibitName: null, connected: false, online: false, numPeripherals: 0, peripherals: [] });
  });

  it('answers by several sites (comma list or repeated) and by exhibit, leaving out what is invisible', async () => {
    expect(ids((await developer.get(`${BASE}/?siteIds=${siteA1},${siteA2},${siteB1}`)).body)).toEqual([board, spare, ocean].sort());
    expect(ids((await developer.get(`${BASE}/?siteIds=${siteA2}&siteIds=${siteB1}`)).body)).toEqual([ocean]);
    expect(ids((await developer.get(`${BASE}?siteIds=${siteA2}`)).body)).toEqual([ocean]);
    const byExhibit = await developer.get(`${BASE}/?exhibitId=${exhibitA1}`);
    expect(byExhibit.status).toBe(200);
    expect(ids(byExhibit.body)).toEqual([board]);
    expect(ids((await outsider.get(`${BASE}/?siteIds=${siteA1},${siteB1}`)).body)).toEqual([bBoard]);
  });

  it('shows an exhibit grant only the hardware of its exhibit', async () => {
    const res = await exhibitViewer.get(`${BASE}/?siteId=${siteA1}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([board]);
    expect(res.body.hardware[0].role).toBe('VIEWER');
    expect(ids((await exhibitViewer.get(`${BASE}/?exhibitId=${exhibitA1}`)).body)).toEqual([board]);
    expect((await exhibitViewer.get(`${BASE}/?siteId=${siteA2}`)).status).toBe(404);
    expect((await exhibitViewer.get(`${BASE}/?exhibitId=${exhibitA2}`)).status).toBe(404);
  });

  it('answers 404 for a single site or exhibit of another organization, or unknown', async () => {
    expect((await outsider.get(`${BASE}/?siteId=${siteA1}`)).status).toBe(404);
    expect((await outsider.get(`${BASE}/?exhibitId=${exhibitA1}`)).status).toBe(404);
    expect((await developer.get(`${BASE}/?siteId=${randomUUID()}`)).status).toBe(404);
  });

  it('validates the query', async () => {
    const none = await developer.get(`${BASE}/`);
    expect(none.status).toBe(400);
    expect(none.body.response).toMatch(/one of siteId, siteIds, exhibitId is required/);
    const bad = await developer.get(`${BASE}/?siteId=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.response).toMatch(/^siteId: /);
    const badList = await developer.get(`${BASE}/?siteIds=${siteA1},abc`);
    expect(badList.status).toBe(400);
    expect(badList.body.response).toMatch(/^siteIds/);
    expect((await server.client().get(`${BASE}/?siteId=${siteA1}`)).status).toBe(401);
  });
});

describe('POST /hardware-mgmt/hardware', () => {
  it('lets a developer create hardware in a site', async () => {
    const res = await developer.post(BASE, { siteId: siteA2, name: 'New board' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'New board',
      siteId: siteA2,
      siteName: 'Ocean Hall',
      exhibitId: null,
      connected: false,
      online: false,
      numPeripherals: 0,
      role: 'DEVELOPER',
    });
    expect(ids((await viewer.get(`${BASE}/?siteId=${siteA2}`)).body)).toContain(res.body.id);
  });

  it('refuses viewers and exhibit-only grants (403) and another organization (404)', async () => {
    expect((await viewer.post(BASE, { siteId: siteA1, name: 'No' })).status).toBe(403);
    expect((await exhibitViewer.post(BASE, { siteId: siteA1, name: 'No' })).status).toBe(403);
    expect((await outsider.post(BASE, { siteId: siteA1, name: 'No' })).status).toBe(404);
  });

  it('validates name and siteId', async () => {
    const name = await developer.post(BASE, { siteId: siteA1, name: '' });
    expect(name.status).toBe(400);
    expect(name.body.response).toMatch(/^name: /);
    const site = await developer.post(BASE, { siteId: 'x', name: 'Board' });
    expect(site.status).toBe(400);
    expect(site.body.response).toMatch(/^siteId: /);
  });
});

describe('GET /hardware-mgmt/hardware/{id}', () => {
  it('answers visible hardware and 404 otherwise', async () => {
    expect((await exhibitViewer.get(`${BASE}/${board}`)).body.name).toBe('Volcano board');
    expect((await exhibitViewer.get(`${BASE}/${spare}`)).status).toBe(404);
    const other = await outsider.get(`${BASE}/${board}`);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain('Volcano');
    expect((await developer.get(`${BASE}/${randomUUID()}`)).status).toBe(404);
    const bad = await developer.get(`${BASE}/nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.response).toMatch(/^id: /);
  });
});

describe('PUT /hardware-mgmt/hardware/{id}', () => {
  it('renames (developer) and refuses viewers (403) and other organizations (404)', async () => {
    const id = (await createHardware(db, siteA1, 'Rename me')).id;
    const events = await eventsDuring(server, 'hardware', id, async () => {
      const res = await developer.put(`${BASE}/${id}`, { name: 'Renamed' });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Renamed');
    });
    expect(events).toEqual([{ type: 'hardware.updated', hardwareId: id }]);
    expect((await viewer.put(`${BASE}/${id}`, { name: 'Viewer' })).status).toBe(403);
    expect((await outsider.put(`${BASE}/${id}`, { name: 'Outsider' })).status).toBe(404);
    expect((await developer.get(`${BASE}/${id}`)).body.name).toBe('Renamed');
  });

  it('connects to an exhibit of the same site, disconnects with null, and refuses another site', async () => {
    const id = (await createHardware(db, siteA1, 'Connect me')).id;
    const connected = await developer.put(`${BASE}/${id}`, { exhibitId: exhibitA1 });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ exhibitId: exhibitA1, exhibitName: 'Volcano', connected: true });
    const elsewhere = await developer.put(`${BASE}/${id}`, { exhibitId: exhibitA2 });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.response).toMatch(/^exhibitId: .*same site/);
    const unknown = await developer.put(`${BASE}/${id}`, { exhibitId: randomUUID() });
    expect(unknown.status).toBe(400);
    expect((await viewer.put(`${BASE}/${id}`, { exhibitId: null })).status).toBe(403);
    const disconnected = await developer.put(`${BASE}/${id}`, { exhibitId: null });
    expect(disconnected.body).toMatchObject({ exhibitId: null, exhibitName: null, connected: false });
  });

  it('switches debug mode on only while the hardware is online, publishing hardware.debugChanged', async () => {
    const offline = await developer.put(`${BASE}/${spare}`, { controlDebug: true });
    expect(offline.status).toBe(409);
    expect(offline.body.response).toBe('HardwareOffline');
    expect((await viewer.put(`${BASE}/${board}`, { controlDebug: true })).status).toBe(403);
    expect((await exhibitViewer.put(`${BASE}/${board}`, { controlDebug: true })).status).toBe(403);
    const events = await eventsDuring(server, 'hardware', board, async () => {
      const res = await developer.put(`${BASE}/${board}`, { controlDebug: true });
      expect(res.status).toBe(200);
      expect(res.body.controlDebug).toBe(true);
    });
    expect(events).toEqual([
      { type: 'hardware.debugChanged', hardwareId: board, controlDebug: true },
      { type: 'hardware.updated', hardwareId: board },
    ]);
    // A board that went offline in debug mode can still be switched back.
    await db.update(hardware).set({ online: false }).where(eq(hardware.id, board));
    try {
      const off = await developer.put(`${BASE}/${board}`, { controlDebug: false });
      expect(off.status).toBe(200);
      expect(off.body.controlDebug).toBe(false);
      expect((await developer.put(`${BASE}/${board}`, { controlDebug: true })).status).toBe(409);
    } finally {
      await db.update(hardware).set({ online: true }).where(eq(hardware.id, board));
    }
  });

  it('refuses an empty body and bad fields', async () => {
    const empty = await developer.put(`${BASE}/${spare}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.response).toMatch(/one of name, exhibitId, controlDebug is required/);
    const debug = await developer.put(`${BASE}/${spare}`, { controlDebug: 'on' });
    expect(debug.status).toBe(400);
    expect(debug.body.response).toMatch(/^controlDebug: /);
    const exhibit = await developer.put(`${BASE}/${spare}`, { exhibitId: 'x' });
    expect(exhibit.status).toBe(400);
    expect(exhibit.body.response).toMatch(/^exhibitId: /);
  });
});

describe('DELETE /hardware-mgmt/hardware/{id}', () => {
  it('lets a developer delete, refuses viewers (403) and other organizations (404)', async () => {
    const id = (await createHardware(db, siteA2, 'Doomed board')).id;
    expect((await viewer.delete(`${BASE}/${id}`)).status).toBe(403);
    expect((await outsider.delete(`${BASE}/${id}`)).status).toBe(404);
    const events = await eventsDuring(server, 'hardware', id, async () => {
      const res = await developer.delete(`${BASE}/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    });
    expect(events).toEqual([{ type: 'hardware.deleted', hardwareId: id }]);
    expect((await developer.get(`${BASE}/${id}`)).status).toBe(404);
  });
});

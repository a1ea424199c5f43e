import { once } from 'node:events';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ManifestInput, ServerMessage } from '@plinth/shared';
import { exhibitConnections, exhibits, logEntries, reportEvents } from '../db/schema.js';
import { createExhibit, createOrganization, createSite, grant } from '../test/factories.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { Exhibit, ExhibitError } from '@plinth/sdk';

let server: TestServer;
let admin: TestClient;
let siteId: string;
const open: Exhibit[] = [];

const MANIFEST: ManifestInput = {
  statuses: [
    { id: 'ip_address', type: 'String', display: 'IP Address' },
    { id: 'count', type: 'Integer', display: 'Visitors', default: 0 },
  ],
  controls: [
    { id: 'reload', type: 'Single', display: 'Reload' },
    { id: 'volume', type: 'Group', display: 'Volume', items: [{ id: 'up', display: 'Up' }, { id: 'down', display: 'Down' }] },
    { id: 'skip', display: 'Skip', enabledOpMode: 'On' },
  ],
  settings: [
    { id: 'kiosk_enabled', type: 'Toggle', display: 'Kiosk', default: true },
    { id: 'kiosk_name', type: 'TextInput', default: 'Lobby' },
    { id: 'welcome', type: 'TextAreaInput', default: '<p>Hello</p>' },
    { id: 'idle_timeout_secs', type: 'IntegerInput', default: 30, min: 5, max: 600 },
    { id: 'ux_mode', type: 'Dropdown', items: [{ id: 'kids' }, { id: 'adults' }], default: 'adults' },
    { id: 'location', type: 'SingleButtonGroup', items: [{ id: 'north' }, { id: 'south' }] },
    { id: 'video', type: 'FileSelection' },
    { id: 'opening', type: 'Date', default: '2026-01-01' },
    { id: 'hero', type: 'StrapiContent', contentType: 'article', displayFieldName: 'title' },
  ],
  settingLists: [
    {
      id: 'scenes',
      listDisplay: 'Scenes',
      settings: [
        { id: 'duration', type: 'IntegerInput', default: 10 },
        { id: 'title', type: 'TextInput', default: '' },
      ],
      defaultItems: [{ listName: 'Intro', values: { title: 'Welcome' } }],
    },
  ],
  settingGroups: [
    {
      id: 'audio',
      groupDisplay: 'Audio',
      settings: [{ id: 'muted', type: 'Toggle' }],
      settingGroups: [{ id: '$gb_advanced', settings: [{ id: 'gain', type: 'IntegerInput', default: 3 }] }],
    },
  ],
};

async function newExhibitRecord(name?: string): Promise<{ id: string; token: string; tokenId: string }> {
  const exhibit = await createExhibit(server.deps.db, siteId, name);
  const res = await admin.post('/auth/exhibit', { name: 'main', exhibitId: exhibit.id });
  expect(res.status).toBe(200);
  return { id: exhibit.id, token: res.body.token, tokenId: res.body.id };
}

function connect(id: string, token: string, manifest: ManifestInput | string = MANIFEST): Exhibit {
  const exhibit = new Exhibit({ serverUrl: server.url, exhibitId: id, token, manifest, reconnectMinMs: 50, reconnectMaxMs: 200 });
  open.push(exhibit);
  return exhibit;
}

async function manifestOf(id: string, client: TestClient = admin) {
  const res = await client.get(`/exhibit-management/exhibit/${id}/manifest`);
  expect(res.status).toBe(200);
  return res.body;
}

const settingOf = (body: any, id: string) =>
  [...body.manifest.settings, ...body.manifest.strapiContent].find((s: any) => s.manifestId === id);

/** A console socket signed in as `client`, subscribed to one exhibit, collecting events. */
async function consoleSocket(client: TestClient, exhibitId: string) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: client.cookieHeader } });
  const messages: ServerMessage[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString()) as ServerMessage));
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'subscribe', exhibitIds: [exhibitId] }));
  await vi.waitFor(() => expect(messages.some((m) => m.type === 'subscribed')).toBe(true));
  return { socket, messages };
}

const wait = { timeout: 10_000, interval: 20 };

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const org = await createOrganization(server.deps.db);
  siteId = (await createSite(server.deps.db, org.id)).id;
});
afterAll(async () => {
  for (const exhibit of open) exhibit.close();
  await server?.stop();
});

/** Runs the gateway's silence sweep a minute ahead, as if every exhibit had missed its heartbeats. */
function dropSilentExhibits(): void {
  const realClock = server.deps.clock;
  server.deps.clock = { now: () => new Date(Date.now() + 60_000) };
  try {
    server.deps.exhibitGateway.sweep();
  } finally {
    server.deps.clock = realClock;
  }
}

describe('the exhibit SDK against the real server', () => {
  it('becomes ready: online with history, manifest stored, defaults applied with their types', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    const settings: Record<string, unknown> = {};
    exhibit.on('setting', ({ id, value }) => (settings[id] = value));
    await exhibit.ready();
    expect(exhibit.getSettings()).toMatchObject({
      kiosk_enabled: true,
      kiosk_name: 'Lobby',
      idle_timeout_secs: 30,
      ux_mode: 'adults',
      location: 'north',
      video: '',
      opening: '2026-01-01',
      hero: null,
      muted: false,
      gain: 3,
    });
    expect(settings.kiosk_enabled).toBe(true);
    expect(typeof settings.idle_timeout_secs).toBe('number');
    expect(exhibit.getSettingList('scenes')).toEqual([{ listName: 'Intro', order: 0, values: { duration: 10, title: 'Welcome' } }]);
    expect(exhibit.getOpMode()).toBe('Off');

    const body = await manifestOf(record.id);
    expect(body.online).toBe(true);
    expect(body.manifest.statuses.map((s: any) => s.manifestId)).toEqual(['ip_address', 'count']);
    expect(body.manifest.controls.find((c: any) => c.manifestId === 'volume').items.map((i: any) => i.id)).toEqual(['up', 'down']);
    expect(body.manifest.strapiContent.map((s: any) => s.manifestId)).toEqual(['hero']);
    expect(body.manifest.settingGroups[0].settings[0].manifestId).toBe('muted');
    expect(body.manifest.settingGroups[0].settingGroups[0].settings[0]).toMatchObject({ manifestId: 'gain', value: 3 });
    expect(body.manifest.settingLists[0]).toMatchObject({ manifestId: 'scenes', listItemCount: 1 });
    await vi.waitFor(async () => expect(settingOf(await manifestOf(record.id), 'kiosk_name').applied).toBe(true), wait);

    const [row] = await server.deps.db.select().from(exhibits).where(eq(exhibits.id, record.id));
    expect(row!.online).toBe(true);
    expect(row!.lastOnlineChange).not.toBeNull();
    const history = await server.deps.db.select().from(exhibitConnections).where(eq(exhibitConnections.exhibitId, record.id));
    expect(history).toMatchObject([{ online: true, tokenId: record.tokenId }]);
  });

  it('fails ready() with an error naming the offending manifest item', async () => {
    const record = await newExhibitRecord();
    const bad = connect(record.id, record.token, { settings: [{ id: 'ok', type: 'Toggle' }, { id: 'volume', type: 'IntegerInput', default: 'loud' }] } as never);
    await expect(bad.ready()).rejects.toThrow(/settings\[1\] "volume": default/);
    const unknownType = connect(record.id, record.token, { settings: [{ id: 'x', type: 'Slider' }] } as never);
    await expect(unknownType.ready()).rejects.toThrow(/"x".*type must be one of/);
  });

  it('fails ready() with 401 for a wrong token', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, 'not-the-token');
    await expect(exhibit.ready()).rejects.toMatchObject({ status: 401 });
  });

  it('sends statuses that reach the manifest and subscribed console sockets', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    const { socket, messages } = await consoleSocket(admin, record.id);
    exhibit.setStatus('ip_address', '10.0.0.7');
    exhibit.setStatus('count', 42);
    expect(exhibit.getStatus('count')).toBe(42);
    await vi.waitFor(
      () => expect(messages).toContainEqual({ type: 'exhibit.statusChanged', exhibitId: record.id, statusId: 'count', value: 42 }),
      wait,
    );
    // Stored in the next batch of status writes (at most 100 ms later).
    await vi.waitFor(async () => {
      const statuses = (await manifestOf(record.id)).manifest.statuses;
      expect(statuses.find((s: any) => s.manifestId === 'ip_address').value).toBe('10.0.0.7');
      expect(statuses.find((s: any) => s.manifestId === 'count').value).toBe(42);
    }, wait);
    socket.close();
  });

  it('delivers single and group controls, and answers 409 ExhibitOffline when the exhibit is offline', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    const controls: unknown[] = [];
    exhibit.on('control', (c) => controls.push(c));
    const base = `/exhibit-management/exhibit/${record.id}/control`;
    expect((await admin.post(`${base}/reload`)).body).toEqual({ delivered: true });
    expect((await admin.post(`${base}/volume?itemId=down`)).status).toBe(200);
    await vi.waitFor(() => expect(controls).toEqual([{ id: 'reload' }, { id: 'volume', itemId: 'down' }]), wait);

    const noItem = await admin.post(`${base}/volume`);
    expect(noItem.status).toBe(400);
    expect(noItem.body.response).toMatch(/itemId/);
    expect((await admin.post(`${base}/volume?itemId=sideways`)).status).toBe(400);
    expect((await admin.post(`${base}/nope`)).status).toBe(404);
    // 'skip' is bound to op mode On; the exhibit is Off.
    expect((await admin.post(`${base}/skip`)).status).toBe(409);

    exhibit.close();
    await vi.waitFor(async () => expect((await manifestOf(record.id)).online).toBe(false), wait);
    const offline = await admin.post(`${base}/reload`);
    expect(offline.status).toBe(409);
    expect(offline.body.code).toBe('ExhibitOffline');
  });

  it('round-trips settings of every type with typed values, pending then applied, and refuses wrong types', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    const received = new Map<string, unknown>();
    exhibit.on('setting', ({ id, value }) => received.set(id, value));
    const values: Record<string, unknown> = {
      kiosk_enabled: false,
      kiosk_name: 'Atrium',
      welcome: '<p>Hi <b>there</b></p>',
      idle_timeout_secs: 120,
      ux_mode: 'kids',
      location: 'south',
      video: 'intro.mp4',
      opening: '2026-05-01T10:00:00.000Z',
      muted: true,
      gain: 7,
    };
    for (const [id, value] of Object.entries(values)) {
      const res = await admin.post(`/exhibit-management/exhibit/${record.id}/setting/${id}`, { value });
      expect(res.status, id).toBe(200);
    }
    // StrapiContent settings read their entry from a content manager: exhibit-sdk-content.test.ts.
    await vi.waitFor(() => expect(received.size).toBe(Object.keys(values).length), wait);
    for (const [id, value] of Object.entries(values)) expect(received.get(id), id).toStrictEqual(value);
    expect(typeof exhibit.getSetting('kiosk_enabled')).toBe('boolean');
    expect(typeof exhibit.getSetting('idle_timeout_secs')).toBe('number');
    await vi.waitFor(async () => {
      const body = await manifestOf(record.id);
      expect(settingOf(body, 'idle_timeout_secs')).toMatchObject({ value: 120, applied: true });
    }, wait);

    const post = (id: string, value: unknown) => admin.post(`/exhibit-management/exhibit/${record.id}/setting/${id}`, { value });
    const wrong = await post('idle_timeout_secs', 'ten');
    expect(wrong.status).toBe(400);
    expect(wrong.body.response).toBe('Setting "idle_timeout_secs" needs an integer');
    expect((await post('kiosk_enabled', 'true')).body.response).toBe('Setting "kiosk_enabled" needs true or false');
    expect((await post('ux_mode', 'teens')).body.response).toMatch(/^Setting "ux_mode" needs one of/);
    expect((await post('idle_timeout_secs', 1)).body.response).toBe('Setting "idle_timeout_secs" must be at least 5');
    expect((await post('missing', 1)).status).toBe(404);
    expect(exhibit.getSetting('idle_timeout_secs')).toBe(120);
  });

  it('creates, copies, orders, edits and deletes setting-list items, reaching the SDK', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    const base = `/exhibit-management/exhibit/${record.id}/settinglist/scenes`;
    expect((await admin.post(base, { listName: 'Finale' })).status).toBe(200);
    expect((await admin.post(base, { listName: 'Finale' })).status).toBe(409);
    expect((await admin.post(`${base}/settinglistitem`, { listName: 'Intro "2"/b', settingListItem: 'Intro' })).status).toBe(200);
    expect(
      (await admin.post(`/exhibit-management/exhibit/${record.id}/setting/duration`, { value: 25, listName: 'Finale' })).status,
    ).toBe(200);
    expect((await admin.post(`${base}/order`, { order: ['Finale', 'Intro 2b', 'Intro'] })).status).toBe(200);
    await vi.waitFor(
      () =>
        expect(exhibit.getSettingList('scenes')).toEqual([
          { listName: 'Finale', order: 0, values: { duration: 25, title: '' } },
          { listName: 'Intro 2b', order: 1, values: { duration: 10, title: 'Welcome' } },
          { listName: 'Intro', order: 2, values: { duration: 10, title: 'Welcome' } },
        ]),
      wait,
    );
    expect((await admin.delete(`${base}?listName=Intro`)).status).toBe(200);
    expect((await admin.delete(`${base}?listName=Intro`)).status).toBe(404);
    await vi.waitFor(() => expect(exhibit.getSettingList('scenes')!.map((i) => i.listName)).toEqual(['Finale', 'Intro 2b']), wait);
    const list = (await manifestOf(record.id)).manifest.settingLists[0];
    expect(list.listItemCount).toBe(2);
    await vi.waitFor(async () => {
      const items = (await manifestOf(record.id)).manifest.settingLists[0].settinglistitems;
      expect(items.every((i: any) => i.applied)).toBe(true);
    }, wait);
  });

  it('switches op mode both ways; an offline exhibit reads Off', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    const modes: string[] = [];
    exhibit.on('opMode', ({ value }) => modes.push(value));
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/opMode`, { opMode: 'On' })).status).toBe(200);
    await vi.waitFor(() => expect(exhibit.getOpMode()).toBe('On'), wait);
    expect(modes).toEqual(['On']);
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/opMode`, { opMode: 'on' })).status).toBe(400);
    exhibit.setOpMode('Off');
    await vi.waitFor(async () => expect((await manifestOf(record.id)).opMode).toBe('Off'), wait);
    exhibit.setOpMode('On');
    await vi.waitFor(async () => expect((await manifestOf(record.id)).opMode).toBe('On'), wait);
    exhibit.close();
    await vi.waitFor(async () => expect((await manifestOf(record.id)).opMode).toBe('Off'), wait);
  });

  it('gets settings saved while it was offline when it reconnects, and flushes queued logs in order, once', async () => {
    const record = await newExhibitRecord();
    const first = connect(record.id, record.token);
    await first.ready();
    first.close();
    await vi.waitFor(async () => expect((await manifestOf(record.id)).online).toBe(false), wait);
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/setting/kiosk_name`, { value: 'Saved offline' })).status).toBe(200);
    expect(settingOf(await manifestOf(record.id), 'kiosk_name')).toMatchObject({ value: 'Saved offline', applied: false });

    const second = connect(record.id, record.token);
    const queuedBefore = new Date();
    second.logger.info('queued before connecting');
    second.logger.warn('queued 2');
    second.logger.debug({ step: 3 });
    second.event('visit', 3);
    await second.ready();
    expect(second.getSetting('kiosk_name')).toBe('Saved offline');
    await vi.waitFor(async () => expect(settingOf(await manifestOf(record.id), 'kiosk_name').applied).toBe(true), wait);

    /** The exhibit's own lines as stored, in log order (at, then id). */
    const ownLines = async () => {
      await server.deps.logs.flush();
      const logs = await server.deps.db.select().from(logEntries).where(eq(logEntries.deviceId, record.id));
      return logs.filter((l) => l.eventType === l.level).sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id);
    };
    await vi.waitFor(async () => expect(await ownLines()).toHaveLength(3), wait);

    // Dropped by the server (a missed heartbeat): what it logs meanwhile waits for the reconnect.
    second.on('disconnected', () => {
      second.logger.error('offline 1');
      second.logger.info('offline 2');
    });
    const reconnected = once(second, 'connected');
    dropSilentExhibits();
    await reconnected;
    second.logger.info('connected again');

    const expected = [
      ['info', 'queued before connecting'],
      ['warn', 'queued 2'],
      ['debug', '{"step":3}'],
      ['error', 'offline 1'],
      ['info', 'offline 2'],
      ['info', 'connected again'],
    ];
    await vi.waitFor(async () => expect((await ownLines()).map((l) => [l.level, l.message])).toEqual(expected), wait);
    // Each line keeps the exhibit's own time: the queued ones are older than the connection.
    const lines = await ownLines();
    expect(lines[0]!.at.getTime()).toBeLessThanOrEqual(queuedBefore.getTime() + 50);
    expect(lines[0]!.at.getTime()).toBeGreaterThanOrEqual(queuedBefore.getTime() - 50);
    const events = await server.deps.db.select().from(reportEvents).where(eq(reportEvents.deviceId, record.id));
    expect(events.map((e) => [e.name, e.value])).toEqual([['visit', '3']]);
    // Once: nothing arrives twice later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await ownLines()).map((l) => [l.level, l.message])).toEqual(expected);
  });

  it('reconnects by itself after the server drops it for a missed heartbeat', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    const reconnected = once(exhibit, 'connected');
    dropSilentExhibits();
    await reconnected;
    await vi.waitFor(async () => {
      const history = await server.deps.db.select().from(exhibitConnections).where(eq(exhibitConnections.exhibitId, record.id));
      expect(history.map((h) => [h.online, h.reason])).toEqual([
        [true, null],
        [false, 'timeout'],
        [true, null],
      ]);
    }, wait);
  });

  it('is disconnected, and goes offline, when its token is revoked mid-session', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    const errors: Error[] = [];
    exhibit.on('error', (error) => errors.push(error));
    await exhibit.ready();
    const disconnected = once(exhibit, 'disconnected');
    expect((await admin.delete(`/auth/exhibit/delete-token/${record.tokenId}`)).status).toBe(200);
    const [info] = (await disconnected) as [{ code: number }];
    expect(info.code).toBe(4001);
    expect(errors[0]).toBeInstanceOf(ExhibitError);
    await vi.waitFor(async () => expect((await manifestOf(record.id)).online).toBe(false), wait);
    expect((await admin.get(`/auth/exhibit/${record.id}`)).body.tokens).toEqual([]);
    const again = connect(record.id, record.token);
    await expect(again.ready()).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a changed manifest while locked (406) while values still flow', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    await server.deps.db.update(exhibits).set({ manifestLocked: true }).where(eq(exhibits.id, record.id));
    const changed: ManifestInput = { ...MANIFEST, statuses: [{ id: 'temperature', type: 'Integer' }] };
    await expect(exhibit.setManifest(changed)).rejects.toMatchObject({ status: 406 });
    await expect(exhibit.setManifest(MANIFEST)).resolves.toBeUndefined();
    expect((await manifestOf(record.id)).manifest.statuses.map((s: any) => s.manifestId)).toEqual(['ip_address', 'count']);
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/setting/kiosk_name`, { value: 'Still flows' })).status).toBe(200);
    await vi.waitFor(() => expect(exhibit.getSetting('kiosk_name')).toBe('Still flows'), wait);

    await server.deps.db.update(exhibits).set({ manifestLocked: false }).where(eq(exhibits.id, record.id));
    await exhibit.setManifest(changed);
    expect((await manifestOf(record.id)).manifest.statuses.map((s: any) => s.manifestId)).toEqual(['temperature']);
    expect(settingOf(await manifestOf(record.id), 'kiosk_name').value).toBe('Still flows');
  });

  it('gives followers the leader settings; followers cannot save; sync-followers copies now', async () => {
    const leader = await newExhibitRecord('Leader');
    const follower = await newExhibitRecord('Follower');
    await server.deps.db.update(exhibits).set({ leaderId: leader.id }).where(eq(exhibits.id, follower.id));
    const leaderSdk = connect(leader.id, leader.token);
    const followerSdk = connect(follower.id, follower.token);
    await Promise.all([leaderSdk.ready(), followerSdk.ready()]);
    const refused = await admin.post(`/exhibit-management/exhibit/${follower.id}/setting/kiosk_name`, { value: 'x' });
    expect(refused.status).toBe(409);
    expect((await admin.post(`/exhibit-management/exhibit/${follower.id}/settinglist/scenes`, { listName: 'y' })).status).toBe(409);
    expect((await admin.post(`/exhibit-management/exhibit/${leader.id}/setting/ux_mode`, { value: 'kids' })).status).toBe(200);
    await vi.waitFor(() => expect(followerSdk.getSetting('ux_mode')).toBe('kids'), wait);
    const sync = await admin.post(`/exhibit-management/exhibit/${leader.id}/sync-followers`);
    expect(sync.body).toEqual({ ok: true, followers: 1 });
    await vi.waitFor(() => expect(followerSdk.getSettingList('scenes')).toEqual(leaderSdk.getSettingList('scenes')), wait);
  });

  it('enforces roles: viewers fire controls and read, developers edit and create tokens, managers delete tokens', async () => {
    const record = await newExhibitRecord();
    const exhibit = connect(record.id, record.token);
    await exhibit.ready();
    const viewer = await server.signUp();
    const developer = await server.signUp();
    const outsider = await server.signUp();
    await grant(server.deps.db, 'exhibit', record.id, viewer.id, 'VIEWER');
    await grant(server.deps.db, 'site', siteId, developer.id, 'DEVELOPER');
    const base = `/exhibit-management/exhibit/${record.id}`;

    expect((await viewer.client.post(`${base}/control/reload`)).status).toBe(200);
    expect((await manifestOf(record.id, viewer.client)).manifest.settings[0].write).toBe(false);
    expect((await viewer.client.post(`${base}/setting/kiosk_name`, { value: 'v' })).status).toBe(403);
    expect((await viewer.client.post(`${base}/opMode`, { opMode: 'On' })).status).toBe(403);
    expect((await viewer.client.get(`/auth/exhibit/${record.id}`)).status).toBe(403);
    const role = await viewer.client.get(`/exhibit-management/permission/by-exhibit-id/user/${record.id}`);
    expect(role.body).toEqual({ exhibitUser: { exhibitId: record.id, userId: viewer.id, email: viewer.email, role: 'VIEWER' } });

    expect((await developer.client.post(`${base}/setting/kiosk_name`, { value: 'd' })).status).toBe(200);
    const created = await developer.client.post('/auth/exhibit', { name: 'second', exhibitId: record.id });
    expect(created.status).toBe(200);
    expect(created.body.token).toEqual(expect.any(String));
    const list = await developer.client.get(`/auth/exhibit/${record.id}`);
    expect(list.body.tokens.map((t: any) => t.name)).toEqual(['main', 'second']);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect((await developer.client.delete(`/auth/exhibit/delete-token/${created.body.id}`)).status).toBe(403);
    expect((await admin.delete(`/auth/exhibit/delete-token/${created.body.id}`)).status).toBe(200);

    expect((await outsider.client.get(`${base}/manifest`)).status).toBe(404);
    expect((await outsider.client.post(`${base}/control/reload`)).status).toBe(404);
    expect((await server.client().get(`${base}/manifest`)).status).toBe(401);
  });
});

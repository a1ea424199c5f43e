import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleLevelCap, type GranularKind, type GranularLevel, type Role } from '@plinth/shared';
import { openExhibitSocket, type ExhibitSocket } from '../../test/exhibit-socket.js';
import { createExhibit, createOrganization, createSite, signUpWith, uniqueName } from '../../test/factories.js';
import { eventBody, schedulesPath } from '../../test/scheduling-kit.js';
import { saveItemLevels } from './item-levels.repository.js';
import { SocketClient } from '../../test/socket-client.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/**
 * Granular levels enforced on every call (design.md §3): for each role and each level, what the
 * manifest read shows, and what firing a control, saving a setting, adding a list item,
 * scheduling a change and the console socket's events allow. A level narrows the role; where it
 * would widen it, the role's cap applies (the levels call refuses storing it).
 */

const MANIFEST = {
  statuses: [{ id: 'temp', type: 'String', display: 'Temperature' }],
  controls: [{ id: 'reload', type: 'Single', display: 'Reload' }],
  settings: [
    { id: 'volume', type: 'IntegerInput', display: 'Volume', default: 5, min: 0, max: 10 },
    { id: 'other', type: 'IntegerInput', display: 'Other', default: 1 },
    { id: 'hero', type: 'StrapiContent', display: 'Hero', contentType: 'article', displayFieldName: 'title' },
  ],
  settingLists: [
    {
      id: 'scenes',
      listDisplay: 'Scenes',
      settings: [{ id: 'title', type: 'TextInput', default: '' }],
      defaultItems: [{ listName: 'Intro' }, { listName: 'Outro' }],
    },
  ],
  settingGroups: [{ id: 'audio', groupDisplay: 'Audio', settings: [{ id: 'muted', type: 'Toggle', display: 'Muted' }] }],
};

/** The item of each kind whose level the matrix sets. */
const ITEMS: Record<GranularKind, string> = { status: 'temp', setting: 'volume', settingList: 'scenes', control: 'reload' };
const FIELDS: Record<GranularKind, string> = {
  status: 'statuspermissions',
  setting: 'settingpermissions',
  settingList: 'settinglistpermissions',
  control: 'controlpermissions',
};
const RANK: Record<GranularLevel, number> = { hidden: 0, read: 1, read_write: 2 };

let server: TestServer;
let admin: TestClient;
let siteId: string;
let exhibitId: string;
let sdk: ExhibitSocket;
const sockets: SocketClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const organization = await createOrganization(server.deps.db, uniqueName('Museum'));
  siteId = (await createSite(server.deps.db, organization.id, 'Hall')).id;
  exhibitId = (await createExhibit(server.deps.db, siteId, 'Volcano')).id;
  // Online for the whole file, so a control that may be fired is delivered.
  sdk = await openExhibitSocket(server, admin, exhibitId);
  sdk.send({ type: 'manifest', requestId: 'm', manifest: MANIFEST });
  await sdk.waitFor((m) => m.type === 'exhibit.synced');
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  sdk?.close();
  await server?.stop();
});

/** A user with `role` on the exhibit and `level` stored on each item where the role allows it (elsewhere the cap applies). */
async function userWithLevel(role: Role, level: GranularLevel): Promise<{ client: TestClient; id: string }> {
  const user = await signUpWith(server, ['exhibit', exhibitId, role]);
  const body: Record<string, unknown> = { exhibitId, userId: user.id };
  for (const kind of Object.keys(ITEMS) as GranularKind[]) {
    body[FIELDS[kind]] = RANK[level] <= RANK[roleLevelCap(role, kind)] ? [{ id: ITEMS[kind], level }] : [];
  }
  const saved = await admin.put('/exhibit-management/permission/granular', body);
  expect(saved.status).toBe(200);
  return user;
}

/** The level that applies: the one stored, or the role's cap where that is lower. */
function expected(role: Role, kind: GranularKind, level: GranularLevel): GranularLevel {
  const cap = roleLevelCap(role, kind);
  return RANK[level] <= RANK[cap] ? level : cap;
}

/** The status an item call answers: 200 when the item is read_write, 403 when read only, 404 when hidden. */
const statusFor = (level: GranularLevel) => ({ read_write: 200, read: 403, hidden: 404 })[level];

const MATRIX = (['MANAGER', 'DEVELOPER', 'VIEWER'] as const).flatMap((role) =>
  (['hidden', 'read', 'read_write'] as const).map((level) => ({ role, level })),
);

describe.each(MATRIX)('a $role with level $level', ({ role, level }) => {
  let user: { client: TestClient; id: string };
  beforeAll(async () => {
    user = await userWithLevel(role, level);
  });

  it('reads the manifest without hidden items, with write flags that say read_write', async () => {
    const res = await user.client.get(`/exhibit-management/exhibit/${exhibitId}/manifest`);
    expect(res.status).toBe(200);
    const { manifest } = res.body;
    const shown = (kind: GranularKind, found: any) => {
      const want = expected(role, kind, level);
      if (want === 'hidden') expect(found, kind).toBeUndefined();
      else expect(found?.write, kind).toBe(want === 'read_write');
    };
    const status = manifest.statuses.find((s: any) => s.manifestId === 'temp');
    expect(Boolean(status)).toBe(expected(role, 'status', level) !== 'hidden');
    shown('control', manifest.controls.find((c: any) => c.manifestId === 'reload'));
    shown('setting', manifest.settings.find((s: any) => s.manifestId === 'volume'));
    shown('settingList', manifest.settingLists.find((l: any) => l.manifestId === 'scenes'));
    // Items without a stored level follow the role.
    const other = manifest.settings.find((s: any) => s.manifestId === 'other');
    expect(other.write).toBe(role !== 'VIEWER');
  });

  it('fires the control only when it is read_write for them', async () => {
    const res = await user.client.post(`/exhibit-management/exhibit/${exhibitId}/control/reload`);
    expect(res.status).toBe(statusFor(expected(role, 'control', level)));
    if (res.status === 403) expect(res.body.response).toBe('You may not fire the control "reload".');
    if (res.status === 404) expect(res.body.response).toBe('The control "reload" does not exist.');
  });

  it('saves the setting only when it is read_write for them (a viewer never)', async () => {
    const res = await user.client.post(`/exhibit-management/exhibit/${exhibitId}/setting/volume`, { value: 3 });
    expect(res.status).toBe(role === 'VIEWER' ? 403 : statusFor(expected(role, 'setting', level)));
    if (res.status === 403 && role !== 'VIEWER') expect(res.body.response).toBe('You may not change the setting "volume".');
  });

  it('adds a list item only when the list is read_write for them (a viewer never)', async () => {
    const res = await user.client.post(`/exhibit-management/exhibit/${exhibitId}/settinglist/scenes`, { listName: uniqueName('Scene') });
    expect(res.status).toBe(role === 'VIEWER' ? 403 : statusFor(expected(role, 'settingList', level)));
    if (res.status === 403 && role !== 'VIEWER') expect(res.body.response).toBe('You may not change the setting list "scenes".');
  });

  it('schedules a change of the setting and a firing of the control only when both are read_write for them', async () => {
    const settingEvent = await user.client.post(schedulesPath(exhibitId), eventBody());
    const controlEvent = await user.client.post(
      schedulesPath(exhibitId),
      eventBody({ manifest: { controls: [{ controlId: 'reload' }], settings: [], strapiContent: [] } }),
    );
    if (role === 'VIEWER') {
      // Viewers do not schedule at all (spec 2.1).
      expect([settingEvent.status, controlEvent.status]).toEqual([403, 403]);
      return;
    }
    /** The answer for an item at `at` of the event: read_write 200, read 403 naming it, hidden 400 as an unknown item. */
    const answer = (want: GranularLevel, texts: { at: string; refused: string; unknown: string }) => {
      if (want === 'read_write') return [200, undefined];
      return want === 'read' ? [403, `manifest.${texts.at}: ${texts.refused}`] : [400, `manifest.${texts.at}: ${texts.unknown}`];
    };
    const response = (res: { status: number; body: any }) => [res.status, res.status === 200 ? undefined : res.body.response];
    expect(response(settingEvent)).toEqual(
      answer(expected(role, 'setting', level), {
        at: 'settings[0]',
        refused: 'you may not change the setting "volume"',
        unknown: 'the setting "volume" does not exist',
      }),
    );
    expect(response(controlEvent)).toEqual(
      answer(expected(role, 'control', level), {
        at: 'controls[0]',
        refused: 'you may not fire the control "reload"',
        unknown: 'the control "reload" does not exist',
      }),
    );
  });

  it("receives the status's and setting's live events only when they are not hidden to them", async () => {
    const socket = await SocketClient.open(server.url, { cookie: user.client.cookieHeader });
    sockets.push(socket);
    await socket.nextOfType('handshake');
    socket.send({ type: 'subscribe', exhibitIds: [exhibitId] });
    await socket.nextOfType('subscribed');
    server.deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.statusChanged', exhibitId, statusId: 'temp', value: '21' });
    server.deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.settingChanged', exhibitId, settingId: 'volume', value: 4, applied: true, version: 9 });
    server.deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.settingChanged', exhibitId, settingId: 'other', value: 2, applied: true, version: 9 });
    const received = (await socket.drain()).map((m: any) => m.statusId ?? m.settingId);
    const want = [
      ...(expected(role, 'status', level) === 'hidden' ? [] : ['temp']),
      ...(expected(role, 'setting', level) === 'hidden' ? [] : ['volume']),
      'other',
    ];
    expect(received).toEqual(want);
    socket.close();
  });
});

describe('a change of levels reaches open sockets', () => {
  it('stops sending the events of an item once it is hidden, and sends them again once shown', async () => {
    const user = await userWithLevel('VIEWER', 'read');
    const socket = await SocketClient.open(server.url, { cookie: user.client.cookieHeader });
    sockets.push(socket);
    await socket.nextOfType('handshake');
    socket.send({ type: 'subscribe', exhibitIds: [exhibitId] });
    await socket.nextOfType('subscribed');
    const statusEvent = (value: string) => server.deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.statusChanged', exhibitId, statusId: 'temp', value });
    statusEvent('1');
    expect((await socket.drain()).map((m: any) => m.value)).toEqual(['1']);

    const hide = await admin.put('/exhibit-management/permission/granular', { exhibitId, userId: user.id, statuspermissions: [{ id: 'temp', level: 'hidden' }] });
    expect(hide.status).toBe(200);
    await socket.nextOfType('exhibit.usersChanged');
    statusEvent('2');
    expect((await socket.drain()).filter((m) => m.type === 'exhibit.statusChanged')).toEqual([]);

    const show = await admin.put('/exhibit-management/permission/granular', { exhibitId, userId: user.id, statuspermissions: [{ id: 'temp', level: 'read' }] });
    expect(show.status).toBe(200);
    await socket.nextOfType('exhibit.usersChanged');
    statusEvent('3');
    expect((await socket.drain()).filter((m) => m.type === 'exhibit.statusChanged').map((m: any) => m.value)).toEqual(['3']);
    socket.close();
  });
});

describe('every other write of an item', () => {
  it.each([
    ['read', 403],
    ['hidden', 404],
  ] as const)('is refused when the item is %s for a developer', async (level, status) => {
    const user = await signUpWith(server, ['exhibit', exhibitId, 'DEVELOPER']);
    const levels = await admin.put('/exhibit-management/permission/granular', {
      exhibitId,
      userId: user.id,
      settingpermissions: [
        { id: 'hero', level },
        { id: 'muted', level },
      ],
      settinglistpermissions: [{ id: 'scenes', level }],
    });
    expect(levels.status).toBe(200);
    const base = `/exhibit-management/exhibit/${exhibitId}`;
    const answers = [
      await user.client.post(`${base}/setting/muted`, { value: true }),
      await user.client.put(`${base}/strapi-content/hero`, { contentId: 7 }),
      await user.client.post(`${base}/setting/title`, { value: 'New', listName: 'Intro' }),
      await user.client.post(`${base}/settinglist/scenes/settinglistitem`, { listName: uniqueName('Copy'), settingListItem: 'Intro' }),
      await user.client.post(`${base}/settinglist/scenes/order`, { order: ['Outro', 'Intro'] }),
      await user.client.delete(`${base}/settinglist/scenes?listName=Outro`),
    ];
    expect(answers.map((res) => res.status)).toEqual([status, status, status, status, status, status]);
    // Nothing changed: the manifest an admin reads still has both items in their order.
    const scenes = (await admin.get(`${base}/manifest`)).body.manifest.settingLists.find((l: any) => l.manifestId === 'scenes');
    expect(scenes.settinglistitems.map((i: any) => i.listName).slice(0, 2)).toEqual(['Intro', 'Outro']);
  });
});

describe('what the server runs itself', () => {
  it('leaves the schedules list to show hidden items by id only', async () => {
    const developer = await userWithLevel('DEVELOPER', 'read_write');
    const created = await developer.client.post(schedulesPath(exhibitId), eventBody({ eventName: 'Named' }));
    expect(created.status).toBe(200);
    const viewerOfIds = await userWithLevel('DEVELOPER', 'hidden');
    const list = await viewerOfIds.client.get(schedulesPath(exhibitId));
    const event = list.body.schedules.find((s: any) => s.id === created.body.schedules[0].id);
    expect(event.schedulesettings).toEqual([{ settingId: 'volume', setting: 'volume', value: 3, listName: null }]);
    const full = await developer.client.get(schedulesPath(exhibitId));
    expect(full.body.schedules.find((s: any) => s.id === event.id).schedulesettings[0].setting).toBe('Volume');
  });
});

describe('levels of the exhibits one subscribe names', () => {
  it('are read together and apply each to its own exhibit', async () => {
    const others = [(await createExhibit(server.deps.db, siteId, 'Geyser')).id, (await createExhibit(server.deps.db, siteId, 'Lava lamp')).id];
    // Viewer of the site; the status is hidden on the second exhibit only.
    const user = await signUpWith(server, ['site', siteId, 'VIEWER']);
    // Stored directly: these exhibits have no manifest for the levels call to check the id against.
    await saveItemLevels(server.deps.db, { exhibitId: others[0]!, userId: user.id }, [{ kind: 'status', manifestId: 'temp', level: 'hidden' }]);
    const socket = await SocketClient.open(server.url, { cookie: user.client.cookieHeader });
    sockets.push(socket);
    await socket.nextOfType('handshake');
    const all = [exhibitId, ...others];
    socket.send({ type: 'subscribe', exhibitIds: all });
    expect((await socket.nextOfType('subscribed')).exhibitIds).toEqual(expect.arrayContaining(all));
    for (const id of all) server.deps.hub.publish('exhibit', id, { type: 'exhibit.statusChanged', exhibitId: id, statusId: 'temp', value: id });
    const received = (await socket.drain()).filter((m: any) => m.type === 'exhibit.statusChanged').map((m: any) => m.exhibitId);
    expect(received).toEqual([exhibitId, others[1]]);
    socket.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXHIBIT_USER_MESSAGES, type RealtimeEvent } from '@plinth/shared';
import { openExhibitSocket } from '../../test/exhibit-socket.js';
import { accessNoticesDuring, createWorld, eventsDuring, signUpWith, uniqueName, type GrantSpec } from '../../test/factories.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/**
 * The Users tab's calls (spec 2.10, 7.1): who is listed, who may add whom (and invite), the
 * last manager, role changes and removal, and the per-item levels' own calls.
 */

let server: TestServer;
let admin: TestClient;
let world: Awaited<ReturnType<typeof createWorld>>;

type Person = { client: TestClient; id: string; email: string; grantId: string };

async function person(...grants: GrantSpec[]): Promise<Person> {
  const { grantIds, ...user } = await signUpWith(server, ...grants);
  return { ...user, grantId: grantIds[0] ?? '' };
}

const newEmail = () => `${uniqueName('invitee').replace(/\W+/g, '.')}@example.com`.toLowerCase();
const listPath = (exhibitId: string) => `/exhibit-management/permission/by-exhibit-id/${exhibitId}`;
const addPath = '/exhibit-management/permission';
const grantPath = (grantId: string) => `/exhibit-management/permission/${grantId}`;
const granularPath = '/exhibit-management/permission/granular';

/** A fresh exhibit in the world's first site (each test its own, so grants do not mix). */
async function newExhibit(): Promise<string> {
  const res = await admin.post('/exhibit-management/exhibit', { name: uniqueName('Exhibit'), siteId: world.siteA.id });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

/** The access notices announced for `userId` while `run` runs. */
const noticesDuring = (userId: string, run: () => Promise<unknown>) => accessNoticesDuring(server, userId, run);

const usersChanged = (exhibitId: string): RealtimeEvent => ({ type: 'exhibit.usersChanged', exhibitId });

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  world = await createWorld(server);
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /exhibit-management/permission/by-exhibit-id/{id}', () => {
  it('lists the users granted a role on the exhibit itself, and tells managers they may manage', async () => {
    const exhibitId = await newExhibit();
    const manager = await person(['exhibit', exhibitId, 'MANAGER']);
    const viewer = await person(['exhibit', exhibitId, 'VIEWER']);
    await person(['site', world.siteA.id, 'MANAGER']);
    await person(['organization', world.org.id, 'DEVELOPER']);
    const res = await manager.client.get(listPath(exhibitId));
    expect(res.status).toBe(200);
    expect(res.body.canManage).toBe(true);
    const rows = res.body.exhibitUsers.map((u: any) => [u.id, u.userId, u.email, u.role, u.accountCreated]).sort();
    expect(rows).toEqual(
      [
        [manager.grantId, manager.id, manager.email, 'MANAGER', true],
        [viewer.grantId, viewer.id, viewer.email, 'VIEWER', true],
      ].sort(),
    );
    // The Users tab is the managers' (spec 2.1): a viewer, or a developer, gets 403 for its call.
    const asViewer = await viewer.client.get(listPath(exhibitId));
    expect(asViewer.status).toBe(403);
  });
});

describe('POST /exhibit-management/permission', () => {
  it.each([
    ['a platform admin', () => Promise.resolve(admin)],
    ['an organization manager', async () => (await person(['organization', world.org.id, 'MANAGER'])).client],
  ])('lets %s add an unknown email: the person is invited by mail', async (_who, who) => {
    const exhibitId = await newExhibit();
    const email = newEmail();
    const res = await (await who()).post(addPath, { exhibitId, email, role: 'developer' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, role: 'DEVELOPER', accountCreated: false });
    const mail = await server.mail.waitFor(email);
    expect(mail.subject).toMatch(/^You have been invited to .+ on Plinth$/);
    expect((await admin.get(listPath(exhibitId))).body.exhibitUsers.map((u: any) => u.email)).toEqual([email]);
  });

  it.each([
    ['an exhibit manager', (exhibitId: string): GrantSpec => ['exhibit', exhibitId, 'MANAGER']],
    ['a site manager', (): GrantSpec => ['site', world.siteA.id, 'MANAGER']],
  ])('lets %s add only people who have an account (403 with the spec text otherwise)', async (_who, spec) => {
    const exhibitId = await newExhibit();
    const manager = await person(spec(exhibitId));
    const email = newEmail();
    const refused = await manager.client.post(addPath, { exhibitId, email });
    expect([refused.status, refused.body.response]).toEqual([403, EXHIBIT_USER_MESSAGES.managersOnlyExisting]);
    expect((await admin.get(listPath(exhibitId))).body.exhibitUsers.map((u: any) => u.email)).not.toContain(email);
    expect(server.mail.mails.some((m) => m.to.includes(email))).toBe(false);

    const someone = await server.signUp();
    const added = await manager.client.post(addPath, { exhibitId, email: someone.email, exhibitCreated: false });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ userId: someone.id, email: someone.email, role: 'VIEWER', accountCreated: true });
  });

  it('refuses adding someone twice with the spec text, and announces each addition', async () => {
    const exhibitId = await newExhibit();
    const someone = await server.signUp();
    let added: Awaited<ReturnType<TestClient['post']>> | undefined;
    const events = await eventsDuring(server, 'exhibit', exhibitId, async () => {
      const notices = await noticesDuring(someone.id, async () => {
        added = await admin.post(addPath, { exhibitId, email: someone.email.toUpperCase() });
      });
      expect(notices).toEqual([{ type: 'access.changed', userId: someone.id, reason: 'grant' }]);
    });
    expect(added?.status).toBe(200);
    expect(events).toEqual([usersChanged(exhibitId)]);
    const again = await admin.post(addPath, { exhibitId, email: someone.email, role: 'manager' });
    expect([again.status, again.body.response]).toEqual([409, EXHIBIT_USER_MESSAGES.alreadyAdded]);
  });

  it('refuses people below manager on the exhibit (403)', async () => {
    const exhibitId = await newExhibit();
    const developer = await person(['exhibit', exhibitId, 'DEVELOPER']);
    const someone = await server.signUp();
    expect((await developer.client.post(addPath, { exhibitId, email: someone.email })).status).toBe(403);
  });
});

describe('PUT and DELETE /exhibit-management/permission/{id}', () => {
  it('changes a role and removes a user, announcing both to the user and to the exhibit', async () => {
    const exhibitId = await newExhibit();
    const manager = await person(['exhibit', exhibitId, 'MANAGER']);
    const viewer = await person(['exhibit', exhibitId, 'VIEWER']);
    let changed: any;
    const changeEvents = await eventsDuring(server, 'exhibit', exhibitId, async () => {
      const notices = await noticesDuring(viewer.id, async () => {
        changed = await manager.client.put(grantPath(viewer.grantId), { role: 'developer' });
      });
      expect(notices).toEqual([{ type: 'access.changed', userId: viewer.id, reason: 'grant' }]);
    });
    expect([changed.status, changed.body.role]).toEqual([200, 'DEVELOPER']);
    expect(changeEvents).toEqual([usersChanged(exhibitId)]);
    expect((await viewer.client.get(`/exhibit-management/permission/by-exhibit-id/user/${exhibitId}`)).body.exhibitUser.role).toBe('DEVELOPER');

    const removeEvents = await eventsDuring(server, 'exhibit', exhibitId, async () => {
      const notices = await noticesDuring(viewer.id, async () => {
        expect((await manager.client.delete(grantPath(viewer.grantId))).status).toBe(200);
      });
      expect(notices).toEqual([{ type: 'access.changed', userId: viewer.id, reason: 'grant' }]);
    });
    expect(removeEvents).toEqual([usersChanged(exhibitId)]);
    expect((await viewer.client.get(`/exhibit-management/exhibit/${exhibitId}/manifest`)).status).toBe(404);
  });

  it('never lets anyone change or remove their own grant', async () => {
    const exhibitId = await newExhibit();
    const manager = await person(['exhibit', exhibitId, 'MANAGER']);
    await person(['exhibit', exhibitId, 'MANAGER']);
    const own = await manager.client.put(grantPath(manager.grantId), { role: 'viewer' });
    expect([own.status, own.body.response]).toEqual([400, 'You cannot change your own role.']);
    const removed = await manager.client.delete(grantPath(manager.grantId));
    expect([removed.status, removed.body.response]).toEqual([400, 'You cannot change your own role.']);
  });

  it('keeps the last manager who holds the exhibit only through its grant', async () => {
    const exhibitId = await newExhibit();
    const only = await person(['exhibit', exhibitId, 'MANAGER']);
    const demoted = await admin.put(grantPath(only.grantId), { role: 'developer' });
    expect([demoted.status, demoted.body.response]).toEqual([400, EXHIBIT_USER_MESSAGES.lastManager]);
    const removed = await admin.delete(grantPath(only.grantId));
    expect([removed.status, removed.body.response]).toEqual([400, EXHIBIT_USER_MESSAGES.lastManager]);
    // A second exhibit manager: the first one may go.
    const second = await person(['exhibit', exhibitId, 'MANAGER']);
    expect((await admin.put(grantPath(only.grantId), { role: 'viewer' })).status).toBe(200);
    // The last one left manages the site too: the exhibit keeps a manager without the grant.
    const siteManager = await person(['site', world.siteA.id, 'MANAGER']);
    const add = await admin.post(addPath, { exhibitId, email: siteManager.email, role: 'manager' });
    expect(add.status).toBe(200);
    expect((await admin.delete(grantPath(second.grantId))).status).toBe(200);
    expect((await admin.delete(grantPath(add.body.id))).status).toBe(200);
  });

  it('lets only one of two demotions at the same moment take the last but one manager', async () => {
    const exhibitId = await newExhibit();
    const [a, b] = [await person(['exhibit', exhibitId, 'MANAGER']), await person(['exhibit', exhibitId, 'MANAGER'])];
    const answers = await Promise.all([admin.put(grantPath(a.grantId), { role: 'viewer' }), admin.delete(grantPath(b.grantId))]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.status === 400)!.body.response).toBe(EXHIBIT_USER_MESSAGES.lastManager);
    const managers = (await admin.get(listPath(exhibitId))).body.exhibitUsers.filter((u: any) => u.role === 'MANAGER');
    expect(managers).toHaveLength(1);
  });
});

describe('another organization', () => {
  it('gets 404 from every call, whatever it names', async () => {
    const exhibitId = await newExhibit();
    const member = await person(['exhibit', exhibitId, 'VIEWER']);
    const outsider = world.outsider;
    const someone = await server.signUp();
    const answers = [
      await outsider.get(listPath(exhibitId)),
      await outsider.post(addPath, { exhibitId, email: someone.email }),
      await outsider.put(grantPath(member.grantId), { role: 'manager' }),
      await outsider.delete(grantPath(member.grantId)),
      await outsider.get(`${granularPath}?exhibitId=${exhibitId}&userId=${member.id}`),
      await outsider.put(granularPath, { exhibitId, userId: member.id, controlpermissions: [] }),
    ];
    expect(answers.map((res) => res.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect((await admin.get(listPath(exhibitId))).body.exhibitUsers.map((u: any) => [u.userId, u.role])).toEqual([[member.id, 'VIEWER']]);
  });
});

describe('granular levels', () => {
  const MANIFEST = {
    statuses: [{ id: 'temp', type: 'String', display: 'Temperature' }],
    controls: [{ id: 'reload', type: 'Single', display: 'Reload' }],
    settings: [
      { id: 'volume', type: 'IntegerInput', display: 'Volume', default: 5 },
      { id: 'hero', type: 'StrapiContent', display: 'Hero', contentType: 'article', displayFieldName: 'title' },
    ],
    settingLists: [{ id: 'scenes', listDisplay: 'Scenes', settings: [{ id: 'title', type: 'TextInput', default: '' }] }],
    settingGroups: [{ id: 'audio', groupDisplay: 'Audio', settings: [{ id: 'muted', type: 'Toggle', display: 'Muted' }] }],
  };

  /** An exhibit whose SDK sent the manifest above. */
  async function exhibitWithManifest(): Promise<string> {
    const exhibitId = await newExhibit();
    const sdk = await openExhibitSocket(server, admin, exhibitId);
    sdk.send({ type: 'manifest', requestId: 'm', manifest: MANIFEST });
    await sdk.waitFor((m) => m.type === 'exhibit.synced');
    sdk.close();
    return exhibitId;
  }

  const levelsOf = (list: any[]) => Object.fromEntries(list.map((p) => [p.id, [p.level, p.read, p.write, p.maxLevel]]));

  it("lists every item with the role's default and cap, for managers and for the user themselves", async () => {
    const exhibitId = await exhibitWithManifest();
    const viewer = await person(['exhibit', exhibitId, 'VIEWER']);
    const other = await person(['exhibit', exhibitId, 'VIEWER']);
    const res = await admin.get(`${granularPath}?exhibitId=${exhibitId}&userId=${viewer.id}`);
    expect(res.status).toBe(200);
    const user = res.body.exhibitUser;
    expect([user.userId, user.email, user.role]).toEqual([viewer.id, viewer.email, 'VIEWER']);
    expect(levelsOf(user.statuspermissions)).toEqual({ temp: ['read', true, false, 'read'] });
    expect(levelsOf(user.settingpermissions)).toEqual({
      volume: ['read', true, false, 'read'],
      hero: ['read', true, false, 'read'],
      muted: ['read', true, false, 'read'],
    });
    expect(levelsOf(user.settinglistpermissions)).toEqual({ scenes: ['read', true, false, 'read'] });
    expect(levelsOf(user.controlpermissions)).toEqual({ reload: ['read_write', true, true, 'read_write'] });
    expect(user.settingpermissions.find((p: any) => p.id === 'muted').display).toBe('Muted');

    expect((await viewer.client.get(`${granularPath}?exhibitId=${exhibitId}&userId=${viewer.id}`)).status).toBe(200);
    expect((await viewer.client.get(`${granularPath}?exhibitId=${exhibitId}&userId=${other.id}`)).status).toBe(403);
  });

  it('stores levels together, narrowing the role; refuses a level above the cap or an unknown item, naming it', async () => {
    const exhibitId = await exhibitWithManifest();
    const developer = await person(['exhibit', exhibitId, 'DEVELOPER']);
    const manager = await person(['exhibit', exhibitId, 'MANAGER']);
    const body = {
      exhibitId,
      userId: developer.id,
      statuspermissions: [{ id: 'temp', level: 'hidden' }],
      settingpermissions: [{ id: 'volume', level: 'read' }],
      settinglistpermissions: [{ id: 'scenes', level: 'hidden' }],
      controlpermissions: [{ id: 'reload', level: 'read' }],
    };
    let saved: any;
    const events = await eventsDuring(server, 'exhibit', exhibitId, async () => {
      const notices = await noticesDuring(developer.id, async () => {
        saved = await manager.client.put(granularPath, body);
      });
      expect(notices).toEqual([{ type: 'access.changed', userId: developer.id, reason: 'grant' }]);
    });
    expect(saved.status).toBe(200);
    expect(events).toEqual([usersChanged(exhibitId)]);
    const user = saved.body.exhibitUser;
    expect(levelsOf(user.statuspermissions).temp).toEqual(['hidden', false, false, 'read']);
    expect(levelsOf(user.settingpermissions).volume).toEqual(['read', true, false, 'read_write']);
    expect(levelsOf(user.settingpermissions).muted).toEqual(['read_write', true, true, 'read_write']);
    expect(levelsOf(user.settinglistpermissions).scenes).toEqual(['hidden', false, false, 'read_write']);
    expect(levelsOf(user.controlpermissions).reload).toEqual(['read', true, false, 'read_write']);

    // Their own view leaves out what is hidden to them.
    const own = (await developer.client.get(`${granularPath}?exhibitId=${exhibitId}&userId=${developer.id}`)).body.exhibitUser;
    expect([own.statuspermissions, own.settinglistpermissions]).toEqual([[], []]);
    expect(own.settingpermissions.map((p: any) => p.id).sort()).toEqual(['hero', 'muted', 'volume']);

    const tooHigh = await manager.client.put(granularPath, {
      exhibitId,
      userId: developer.id,
      settingpermissions: [{ id: 'muted', level: 'hidden' }],
      statuspermissions: [{ id: 'temp', level: 'read_write' }],
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.response).toBe('statuspermissions[0]: "Temperature" (temp) allows at most read for a DEVELOPER; levels never widen a role');
    const unknown = await manager.client.put(granularPath, { exhibitId, userId: developer.id, controlpermissions: [{ id: 'nope', level: 'read' }] });
    expect([unknown.status, unknown.body.response]).toEqual([400, 'controlpermissions[0]: the exhibit has no control "nope"']);
    // Nothing of a refused change was stored.
    const after = (await manager.client.get(`${granularPath}?exhibitId=${exhibitId}&userId=${developer.id}`)).body.exhibitUser;
    expect(levelsOf(after.settingpermissions).muted[0]).toBe('read_write');
  });

  it("refuses a viewer's setting above read, and calls by non-managers", async () => {
    const exhibitId = await exhibitWithManifest();
    const viewer = await person(['exhibit', exhibitId, 'VIEWER']);
    const developer = await person(['exhibit', exhibitId, 'DEVELOPER']);
    const tooHigh = await admin.put(granularPath, { exhibitId, userId: viewer.id, settingpermissions: [{ id: 'volume', level: 'read_write' }] });
    expect([tooHigh.status, tooHigh.body.response]).toEqual([
      400,
      'settingpermissions[0]: "Volume" (volume) allows at most read for a VIEWER; levels never widen a role',
    ]);
    const byDeveloper = await developer.client.put(granularPath, { exhibitId, userId: viewer.id, controlpermissions: [{ id: 'reload', level: 'read' }] });
    expect(byDeveloper.status).toBe(403);
    const nobody = await admin.get(`${granularPath}?exhibitId=${exhibitId}&userId=${world.exhibit.id}`);
    expect(nobody.status).toBe(404);
  });

  it("forgets a removed user's levels", async () => {
    const exhibitId = await exhibitWithManifest();
    const viewer = await person(['exhibit', exhibitId, 'VIEWER']);
    expect((await admin.put(granularPath, { exhibitId, userId: viewer.id, controlpermissions: [{ id: 'reload', level: 'hidden' }] })).status).toBe(200);
    expect((await admin.delete(grantPath(viewer.grantId))).status).toBe(200);
    const again = await admin.post(addPath, { exhibitId, email: viewer.email });
    expect(again.status).toBe(200);
    const levels = (await admin.get(`${granularPath}?exhibitId=${exhibitId}&userId=${viewer.id}`)).body.exhibitUser;
    expect(levelsOf(levels.controlpermissions).reload[0]).toBe('read_write');
  });
});

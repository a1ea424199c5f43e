import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE } from '@plinth/shared';
import { runCli } from '../cli.js';
import { createExhibit, createHardware, createOrganization, createSite, signUpWith } from '../test/factories.js';
import { linkIn } from '../test/mail-capture.js';
import { SocketClient } from '../test/socket-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

/**
 * Access that ends must end everywhere, at once: two server nodes share one PostgreSQL database
 * and one Redis; every change is made through node A while the user's socket is open on node B,
 * and B must act within one second.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WITHIN_MS = 1000;

let a: TestServer;
let b: TestServer;
let admin: Awaited<ReturnType<TestServer['signUp']>>;
let exhibitId: string;
let otherExhibitId: string;
let organizationId: string;
const sockets: SocketClient[] = [];

beforeAll(async () => {
  a = await startTestServer({ REDIS_URL });
  b = await startTestServer({ REDIS_URL }, { databaseUrl: a.databaseUrl });
  admin = await a.signUp({ isPlatformAdmin: true });
  const org = await createOrganization(a.deps.db);
  organizationId = org.id;
  const site = await createSite(a.deps.db, org.id);
  exhibitId = (await createExhibit(a.deps.db, site.id)).id;
  otherExhibitId = (await createExhibit(a.deps.db, site.id)).id;
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

/** A socket on node B, signed in with this session cookie and subscribed to the exhibits. */
async function socketOnB(cookie: string, exhibitIds: string[]): Promise<SocketClient> {
  const socket = await SocketClient.open(b.url, { cookie });
  sockets.push(socket);
  expect(await socket.next()).toMatchObject({ type: 'handshake', authenticated: true });
  socket.send({ type: 'subscribe', exhibitIds });
  expect(await socket.next()).toMatchObject({ type: 'subscribed', exhibitIds });
  return socket;
}

/**
 * Publishes an event of `revokedId` then one of `allowedId` from node A (through Redis, in that
 * order) and answers the ids whose events reached the socket by the time the second arrived.
 */
async function deliveredIds(socket: SocketClient, revokedId: string, allowedId: string): Promise<string[]> {
  a.deps.hub.publish('exhibit', revokedId, { type: 'exhibit.updated', exhibitId: revokedId });
  a.deps.hub.publish('exhibit', allowedId, { type: 'exhibit.updated', exhibitId: allowedId });
  const seen: string[] = [];
  while (!seen.includes(allowedId)) {
    const message = await socket.nextOfType('exhibit.updated');
    seen.push(message.exhibitId);
  }
  return seen;
}

/** Resolves with how long the socket took to close after `change` answered, and its close code. */
async function closeAfter(socket: SocketClient, change: () => Promise<unknown>) {
  await change();
  const started = Date.now();
  const { code } = await socket.closedWithin(WITHIN_MS);
  return { code, ms: Date.now() - started };
}

describe('grants that change on another node', () => {
  it('a removed grant stops the events of what it gave, within one second', async () => {
    const viewer = await signUpWith(a, ['organization', organizationId, 'VIEWER']);
    const manager = await signUpWith(a, ['organization', organizationId, 'MANAGER']);
    const socket = await socketOnB(viewer.client.cookieHeader, [exhibitId, otherExhibitId]);

    const removed = await manager.client.delete(`/org-management/permission/organization/${viewer.grantIds[0]}`);
    expect(removed.status).toBe(200);
    const started = Date.now();
    const notice = await socket.nextOfType('access.changed', WITHIN_MS);
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
    expect(notice.exhibitIds.sort()).toEqual([exhibitId, otherExhibitId].sort());

    // Nothing of the exhibits reaches it any more; the socket itself stays open.
    a.deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.updated', exhibitId });
    expect(await socket.drain()).toEqual([]);
    expect(socket.closed).toBeNull();
  });

  it('a removed grant stops the events of the boards it gave too, and keeps the others', async () => {
    const [site1, site2] = [await createSite(a.deps.db, organizationId), await createSite(a.deps.db, organizationId)];
    const inSite1 = (await createHardware(a.deps.db, site1.id)).id;
    const inSite2 = (await createHardware(a.deps.db, site2.id)).id;
    const user = await signUpWith(a, ['site', site1.id, 'VIEWER'], ['site', site2.id, 'VIEWER']);
    const manager = await signUpWith(a, ['organization', organizationId, 'MANAGER']);
    const socket = await SocketClient.open(b.url, { cookie: user.client.cookieHeader });
    sockets.push(socket);
    expect(await socket.next()).toMatchObject({ type: 'handshake', authenticated: true });
    socket.send({ type: 'subscribe', hardwareIds: [inSite1, inSite2] });
    expect(await socket.next()).toMatchObject({ type: 'subscribed', hardwareIds: [inSite1, inSite2] });

    expect((await manager.client.delete(`/org-management/permission/site/${user.grantIds[0]}`)).status).toBe(200);
    expect(await socket.nextOfType('access.changed', WITHIN_MS)).toEqual({ type: 'access.changed', exhibitIds: [], hardwareIds: [inSite1] });
    // An event of the dropped board, then one of the kept board, in that order through Redis.
    a.deps.hub.publish('hardware', inSite1, { type: 'hardware.updated', hardwareId: inSite1 });
    a.deps.hub.publish('hardware', inSite2, { type: 'hardware.updated', hardwareId: inSite2 });
    const seen: string[] = [];
    while (!seen.includes(inSite2)) seen.push((await socket.nextOfType('hardware.updated', WITHIN_MS)).hardwareId);
    expect(seen).toEqual([inSite2]);
  });

  it('drops exactly what is no longer allowed: a grant removed on one site keeps the other', async () => {
    const db = a.deps.db;
    const site1 = await createSite(db, organizationId);
    const site2 = await createSite(db, organizationId);
    const inSite1 = (await createExhibit(db, site1.id)).id;
    const inSite2 = (await createExhibit(db, site2.id)).id;
    const user = await signUpWith(a, ['site', site1.id, 'VIEWER'], ['site', site2.id, 'VIEWER']);
    const manager = await signUpWith(a, ['organization', organizationId, 'MANAGER']);
    const socket = await socketOnB(user.client.cookieHeader, [inSite1, inSite2]);

    expect((await manager.client.delete(`/org-management/permission/site/${user.grantIds[0]}`)).status).toBe(200);
    expect(await socket.nextOfType('access.changed', WITHIN_MS)).toEqual({ type: 'access.changed', exhibitIds: [inSite1], hardwareIds: [] });
    expect(await deliveredIds(socket, inSite1, inSite2)).toEqual([inSite2]);
  });

  it('a lowered role is announced at once and keeps what the lower role may still see', async () => {
    const developer = await signUpWith(a, ['organization', organizationId, 'DEVELOPER']);
    const manager = await signUpWith(a, ['organization', organizationId, 'MANAGER']);
    const socket = await socketOnB(developer.client.cookieHeader, [exhibitId]);

    const lowered = await manager.client.put(`/org-management/permission/organization/${developer.grantIds[0]}`, { role: 'viewer' });
    expect(lowered.status).toBe(200);
    expect(await socket.nextOfType('access.changed', WITHIN_MS)).toEqual({ type: 'access.changed', exhibitIds: [], hardwareIds: [] });
    // Viewers see exhibits: the subscription stays.
    a.deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.updated', exhibitId });
    expect(await socket.nextOfType('exhibit.updated')).toEqual({ type: 'exhibit.updated', exhibitId });
  });

  it('a platform admin made an ordinary user (command line on node A) stops receiving what no grant gives', async () => {
    const formerAdmin = await a.signUp({ isPlatformAdmin: true });
    const socket = await socketOnB(formerAdmin.client.cookieHeader, [exhibitId]);

    const code = await withEnv({ DATABASE_URL: a.databaseUrl, REDIS_URL }, () =>
      runCli(['user', 'platform-admin', '--email', formerAdmin.email, '--revoke'], { write: () => true }, { write: () => true }),
    );
    expect(code).toBe(0);
    expect(await socket.nextOfType('access.changed', WITHIN_MS)).toEqual({ type: 'access.changed', exhibitIds: [exhibitId], hardwareIds: [] });
    a.deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.updated', exhibitId });
    expect(await socket.drain()).toEqual([]);
  });
});

describe('sessions that end on another node close the socket', () => {
  it('logout', async () => {
    const user = await signUpWith(a, ['organization', organizationId, 'VIEWER']);
    const socket = await socketOnB(user.client.cookieHeader, [exhibitId]);
    const { code, ms } = await closeAfter(socket, async () => expect((await user.client.post('/auth/logout')).status).toBe(200));
    expect(code).toBe(CONSOLE_CLOSE.sessionEnded);
    expect(ms).toBeLessThan(WITHIN_MS);
  });

  it('a password change through a reset link', async () => {
    const user = await signUpWith(a, ['organization', organizationId, 'VIEWER']);
    const socket = await socketOnB(user.client.cookieHeader, [exhibitId]);
    expect((await a.client().post('/auth/user/reset-password', { email: user.email })).status).toBe(200);
    const mail = await a.mail.waitFor(user.email);
    const resetUrlId = linkIn(mail).searchParams.get('id')!;
    const { code, ms } = await closeAfter(socket, async () =>
      expect((await a.client().post('/auth/user/change-password', { resetUrlId, password: 'N3wPassword' })).status).toBe(200),
    );
    expect(code).toBe(CONSOLE_CLOSE.sessionEnded);
    expect(ms).toBeLessThan(WITHIN_MS);
  });

  it('a platform admin signs the user out (REST)', async () => {
    const user = await signUpWith(a, ['organization', organizationId, 'VIEWER']);
    const socket = await socketOnB(user.client.cookieHeader, [exhibitId]);
    const { code, ms } = await closeAfter(socket, async () =>
      expect((await admin.client.delete(`/auth/user/${user.id}/sessions`)).status).toBe(200),
    );
    expect(code).toBe(CONSOLE_CLOSE.sessionEnded);
    expect(ms).toBeLessThan(WITHIN_MS);
    expect((await user.client.get('/auth')).status).toBe(401);
  });

  it('an admin signs the user out from the command line', async () => {
    const user = await signUpWith(a, ['organization', organizationId, 'VIEWER']);
    const socket = await socketOnB(user.client.cookieHeader, [exhibitId]);
    const { code, ms } = await closeAfter(socket, () =>
      withEnv({ DATABASE_URL: a.databaseUrl, REDIS_URL }, async () =>
        expect(await runCli(['user', 'sign-out', '--email', user.email], { write: () => true }, { write: () => true })).toBe(0),
      ),
    );
    expect(code).toBe(CONSOLE_CLOSE.sessionEnded);
    expect(ms).toBeLessThan(WITHIN_MS);
  });

  it('only platform admins sign others out; unknown users answer 404', async () => {
    const manager = await signUpWith(a, ['organization', organizationId, 'MANAGER']);
    const target = await signUpWith(a, ['organization', organizationId, 'VIEWER']);
    expect((await manager.client.delete(`/auth/user/${target.id}/sessions`)).status).toBe(403);
    expect((await target.client.get('/auth')).status).toBe(200);
    expect((await admin.client.delete('/auth/user/00000000-0000-4000-8000-000000000000/sessions')).status).toBe(404);
    expect((await a.client().delete(`/auth/user/${target.id}/sessions`)).status).toBe(401);
  });
});

/** Runs `work` with these environment variables set (the command line reads its configuration from them). */
async function withEnv<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await work();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

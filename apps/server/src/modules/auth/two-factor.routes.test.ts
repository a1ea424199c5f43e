import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SETTING_IDS } from '@plinth/shared';
import { userTwoFactor } from '../../db/schema.js';
import { createOrganization, createSite, grant } from '../../test/factories.js';
import { createFakeClock, type FakeClock } from '../../test/fake-clock.js';
import { SocketClient } from '../../test/socket-client.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

const DAY = 24 * 60 * 60 * 1000;
const STEP = 30 * 1000;

let server: TestServer;
let clock: FakeClock;

beforeAll(async () => {
  clock = createFakeClock();
  // The production sign-in budgets, so the lockout is the real one.
  server = await startTestServer({ THROTTLE_ACCOUNT_FAILURES: '5', THROTTLE_IP_FAILURES: '50' }, { clock });
});
afterAll(async () => {
  await server?.stop();
});
// A quiet day between tests: no throttle key still counts, and each test has fresh TOTP steps.
beforeEach(() => clock.advance(DAY));

/** The code an authenticator app shows for `secret` at the server's (fake) time. */
function codeAt(secret: string, time = clock.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: time.getTime() });
}

/** A code for the secret that is not the current one nor a neighbour's (a wrong guess). */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((k) => codeAt(secret, new Date(clock.now().getTime() + k * STEP))));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/** A user with two-factor sign-in on: their secret and recovery codes. */
async function enrolledUser() {
  const user = await server.signUp();
  const setup = await user.client.post('/auth/two-factor/setup');
  expect(setup.status).toBe(200);
  const secret: string = setup.body.secret;
  const enable = await user.client.post('/auth/two-factor/enable', { code: codeAt(secret) });
  expect(enable.status).toBe(200);
  clock.advance(STEP);
  return { ...user, secret, recoveryCodes: enable.body.recoveryCodes as string[] };
}

async function passwordStep(email: string, password: string): Promise<TestClient> {
  const client = server.client();
  const res = await client.post('/auth/user/login', { email, password });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ twoFactorRequired: true });
  return client;
}

describe('enrolment', () => {
  it('shows a QR code and the secret, turns on only after a right code, and answers ten recovery codes once', async () => {
    const { client, email } = await server.signUp();
    expect((await client.get('/auth/two-factor')).body).toEqual({ enabled: false, required: false, available: true, recoveryCodesLeft: 0 });
    const setup = await client.post('/auth/two-factor/setup');
    expect(setup.body.otpauthUrl).toContain(`otpauth://totp/Plinth:${encodeURIComponent(email)}`);
    expect(setup.body.otpauthUrl).toContain(`secret=${setup.body.secret}`);
    expect(Buffer.from(setup.body.qrCodeDataUrl.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain('<svg');

    const wrong = await client.post('/auth/two-factor/enable', { code: wrongCode(setup.body.secret) });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('InvalidTwoFactorCode');
    expect((await client.get('/auth/two-factor')).body.enabled).toBe(false);

    const enable = await client.post('/auth/two-factor/enable', { code: codeAt(setup.body.secret) });
    expect(enable.status).toBe(200);
    expect(enable.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enable.body.recoveryCodes).size).toBe(10);
    expect((await client.get('/auth/two-factor')).body).toEqual({ enabled: true, required: false, available: true, recoveryCodesLeft: 10 });
    // On now: no second set-up over it, and the secret is stored sealed.
    expect((await client.post('/auth/two-factor/setup')).status).toBe(409);
    const sealed = (await server.deps.db.select().from(userTwoFactor)).map((row) => row.secretSealed);
    expect(sealed.every((value) => value.startsWith('enc:v1:'))).toBe(true);
    expect(sealed.join()).not.toContain(setup.body.secret);
  });

  it('refuses a set-up without a session', async () => {
    expect((await server.client().post('/auth/two-factor/setup')).status).toBe(401);
  });
});

describe('sign-in with two-factor', () => {
  it('asks for the code after the password, makes no session until it comes, then signs in', async () => {
    const { email, password, secret } = await enrolledUser();
    const client = await passwordStep(email, password);
    expect(client.sessionToken).toBeUndefined();
    expect((await client.get('/auth')).status).toBe(401);
    const done = await client.post('/auth/user/login/two-factor', { code: codeAt(secret) });
    expect(done.status).toBe(200);
    expect(done.body.email).toBe(email);
    expect((await client.get('/auth')).status).toBe(200);
    // The same code is not accepted twice, even within its 30 seconds.
    const again = await passwordStep(email, password);
    expect((await again.post('/auth/user/login/two-factor', { code: codeAt(secret) })).body.code).toBe('InvalidTwoFactorCode');
  });

  it('refuses the second step without the pending sign-in, or after 5 minutes', async () => {
    const { email, password, secret } = await enrolledUser();
    expect((await server.client().post('/auth/user/login/two-factor', { code: codeAt(secret) })).status).toBe(401);
    const client = await passwordStep(email, password);
    clock.advance(5 * 60 * 1000 + 1000);
    const late = await client.post('/auth/user/login/two-factor', { code: codeAt(secret) });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('Unauthorized');
  });

  it('throttles wrong codes in the same lockout as wrong passwords', async () => {
    const { email, password, secret } = await enrolledUser();
    const client = await passwordStep(email, password);
    // Two wrong passwords and three wrong codes spend the account's five free failures.
    for (let i = 0; i < 2; i++) expect((await server.client().post('/auth/user/login', { email, password: 'Wr0ngPassword' })).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await client.post('/auth/user/login/two-factor', { code: wrongCode(secret) })).status).toBe(401);
    const refused = await client.post('/auth/user/login/two-factor', { code: codeAt(secret) });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TooManyRequests');
    // The password step is held up too, and a right password does not clear the count.
    expect((await server.client().post('/auth/user/login', { email, password })).status).toBe(429);
    clock.advance(1000);
    const fresh = await passwordStep(email, password);
    expect((await fresh.post('/auth/user/login/two-factor', { code: wrongCode(secret) })).status).toBe(401);
    expect((await fresh.post('/auth/user/login/two-factor', { code: codeAt(secret) })).status).toBe(429);
    clock.advance(2000);
    expect((await fresh.post('/auth/user/login/two-factor', { code: codeAt(secret) })).status).toBe(200);
  });

  it('accepts each recovery code once', async () => {
    const { email, password, recoveryCodes, client: owner } = await enrolledUser();
    const first = await passwordStep(email, password);
    expect((await first.post('/auth/user/login/two-factor', { code: recoveryCodes[0]!.toUpperCase() })).status).toBe(200);
    const second = await passwordStep(email, password);
    const reused = await second.post('/auth/user/login/two-factor', { code: recoveryCodes[0] });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('InvalidTwoFactorCode');
    expect((await second.post('/auth/user/login/two-factor', { code: recoveryCodes[1] })).status).toBe(200);
    expect((await owner.get('/auth/two-factor')).body.recoveryCodesLeft).toBe(8);
  });
});

describe('turning it off', () => {
  it('needs the password and a code', async () => {
    const { client, email, password, secret } = await enrolledUser();
    const noPassword = await client.post('/auth/two-factor/disable', { password: 'Wr0ngPassword', code: codeAt(secret) });
    expect(noPassword.body.code).toBe('IncorrectUsernameOrPassword');
    const noCode = await client.post('/auth/two-factor/disable', { password, code: wrongCode(secret) });
    expect(noCode.body.code).toBe('InvalidTwoFactorCode');
    expect((await client.post('/auth/two-factor/disable', { password })).status).toBe(400);
    expect((await client.get('/auth/two-factor')).body.enabled).toBe(true);
    expect((await client.post('/auth/two-factor/disable', { password, code: codeAt(secret) })).status).toBe(200);
    expect((await client.get('/auth/two-factor')).body.enabled).toBe(false);
    // Sign-in is back to the password alone.
    const res = await server.client().post('/auth/user/login', { email, password });
    expect(res.body.email).toBe(email);
  });
});

describe('an organization that requires two-factor sign-in', () => {
  it('lets only its managers turn the setting on, and takes only true or false', async () => {
    const org = await createOrganization(server.deps.db);
    const viewer = await server.signUp();
    await grant(server.deps.db, 'organization', org.id, viewer.id, 'VIEWER');
    const path = `/org-management/organization/${org.id}/setting/${SETTING_IDS.requireTwoFactor}`;
    expect((await viewer.client.put(path, { value: 'true' })).status).toBe(403);
    const manager = await server.signUp();
    await grant(server.deps.db, 'organization', org.id, manager.id, 'MANAGER');
    expect((await manager.client.put(path, { value: 'yes' })).status).toBe(400);
    // The manager has no two-factor sign-in yet: turning it on sends them to enrol too.
    expect((await manager.client.put(path, { value: 'true' })).status).toBe(200);
    expect((await manager.client.get('/org-management/organization')).status).toBe(403);
  });

  it('makes members without it enrol before anything else, on every path to a role', async () => {
    const org = await createOrganization(server.deps.db);
    const site = await createSite(server.deps.db, org.id);
    const admin = await server.signUp({ isPlatformAdmin: true });
    const member = await server.signUp();
    await grant(server.deps.db, 'site', site.id, member.id, 'VIEWER');
    const outsider = await server.signUp();
    const path = `/org-management/organization/${org.id}/setting/${SETTING_IDS.requireTwoFactor}`;
    expect((await admin.client.put(path, { value: 'true' })).status).toBe(200);

    const refused = await member.client.get(`/org-management/site/setting/${site.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('TwoFactorEnrolmentRequired');
    expect((await member.client.get('/auth')).body.mustEnrolTwoFactor).toBe(true);
    expect((await member.client.get('/auth/two-factor')).body).toMatchObject({ enabled: false, required: true });
    // The console socket treats the session as signed out until then.
    const socket = await SocketClient.open(server.url, { cookie: member.client.cookieHeader });
    expect(await socket.next()).toEqual({ type: 'handshake', authenticated: false });
    socket.ws.close();
    // Someone with no role in it, and the platform admin without a grant, are not held.
    expect((await outsider.client.get('/auth')).body.mustEnrolTwoFactor).toBe(false);
    expect((await admin.client.get('/org-management/organization')).status).toBe(200);

    const setup = await member.client.post('/auth/two-factor/setup');
    expect((await member.client.post('/auth/two-factor/enable', { code: codeAt(setup.body.secret) })).status).toBe(200);
    expect((await member.client.get(`/org-management/site/setting/${site.id}`)).status).toBe(200);
    expect((await member.client.get('/auth')).body.mustEnrolTwoFactor).toBe(false);
    const enrolled = await SocketClient.open(server.url, { cookie: member.client.cookieHeader });
    expect(await enrolled.next()).toEqual({ type: 'handshake', authenticated: true, userId: member.id });
    enrolled.ws.close();
  });
});

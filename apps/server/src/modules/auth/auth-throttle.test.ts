import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrganization, createSite } from '../../test/factories.js';
import { createFakeClock, type FakeClock } from '../../test/fake-clock.js';
import { linkIn } from '../../test/mail-capture.js';
import type { TestResponse } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/** The production budgets (the test server raises them for every other suite). */
const DEFAULT_BUDGETS = {
  THROTTLE_ACCOUNT_FAILURES: '5',
  THROTTLE_IP_FAILURES: '50',
  THROTTLE_MAILS_PER_ADDRESS: '3',
  THROTTLE_MAILS_PER_SENDER: '30',
};
/** Small per-address budgets, so a few requests reach them. */
const SMALL_ADDRESS_BUDGETS = { ...DEFAULT_BUDGETS, THROTTLE_ACCOUNT_FAILURES: '100', THROTTLE_IP_FAILURES: '3', THROTTLE_MAILS_PER_SENDER: '3' };
const DAY = 24 * 60 * 60 * 1000;

const fresh = (name: string) => `${name}.${randomUUID().slice(0, 8)}@example.com`;

/**
 * A server of the describe block's own, on a fake clock that moves a quiet day before each test
 * (so no key still counts from the test before).
 */
function useThrottledServer(env: Record<string, string>): { server: TestServer; clock: FakeClock } {
  const context = { clock: createFakeClock() } as { server: TestServer; clock: FakeClock };
  beforeAll(async () => {
    context.server = await startTestServer(env, { clock: context.clock });
  });
  afterAll(async () => {
    await context.server?.stop();
  });
  beforeEach(() => context.clock.advance(DAY));
  return context;
}

function signIn(server: TestServer, email: string, password: string, forwardedFor?: string): Promise<TestResponse> {
  const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
  return server.client().request('POST', '/auth/user/login', { email, password }, headers);
}

function expectWait(res: TestResponse, seconds: number, words: string, refusal = 'Too many failed attempts.') {
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe(String(seconds));
  expect(res.body).toMatchObject({ code: 'TooManyRequests', response: `${refusal} Try again in ${words}.`, details: { retryAfterSeconds: seconds } });
}

describe('with the default budgets', () => {
  const context = useThrottledServer(DEFAULT_BUDGETS);

  it('counts only failures: a venue behind one address signs its staff in all day', async () => {
    const staff = await Promise.all([1, 2, 3, 4, 5].map(() => context.server.signUp()));
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (const { email, password } of staff) {
        if (round === 0) statuses.push((await signIn(context.server, email, 'Typ0edPassword')).status);
        statuses.push((await signIn(context.server, email, password)).status);
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
  });

  it('makes an account wait after 5 failures, says how long, and refuses even the right password meanwhile', async () => {
    const { email, password } = await context.server.signUp();
    for (let i = 0; i < 5; i++) expect((await signIn(context.server, email, 'Wr0ngPassword')).status).toBe(401);
    expectWait(await signIn(context.server, email, 'Wr0ngPassword'), 1, '1 second');
    expectWait(await signIn(context.server, email, password), 1, '1 second');
    // Another account from the same address is not held up.
    const other = await context.server.signUp();
    expect((await signIn(context.server, other.email, other.password)).status).toBe(200);

    context.clock.advance(1000);
    expect((await signIn(context.server, email, 'Wr0ngPassword')).status).toBe(401);
    expectWait(await signIn(context.server, email, password), 2, '2 seconds');
    context.clock.advance(2000);
    expect((await signIn(context.server, email, 'Wr0ngPassword')).status).toBe(401);
    expectWait(await signIn(context.server, email, password), 4, '4 seconds');
    context.clock.advance(4000);
    // Success clears the account: five free failures again.
    expect((await signIn(context.server, email, password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn(context.server, email, 'Wr0ngPassword')).status).toBe(401);
    expectWait(await signIn(context.server, email, password), 1, '1 second');
  });

  it('answers an unknown email exactly as a known one, waits included', async () => {
    const { email: known } = await context.server.signUp();
    const unknown = fresh('nobody');
    for (let i = 0; i < 6; i++) {
      const a = await signIn(context.server, known, 'Wr0ngPassword');
      const b = await signIn(context.server, unknown, 'Wr0ngPassword');
      expect([b.status, b.body, b.headers.get('retry-after')]).toEqual([a.status, a.body, a.headers.get('retry-after')]);
      expect(a.status).toBe(i < 5 ? 401 : 429);
    }
  });

  it('lets no more than the free failures through when guesses arrive all at once', async () => {
    const { email } = await context.server.signUp();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(context.server, email, `Gue55${i}Password`)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('caps the wait at 15 minutes and starts counting again after 15 quiet minutes', async () => {
    const { email, password } = await context.server.signUp();
    let wait = 0;
    for (let failure = 1; failure <= 16; failure++) {
      context.clock.advance(wait);
      expect((await signIn(context.server, email, 'Wr0ngPassword')).status).toBe(401);
      wait = Math.min(failure < 5 ? 0 : 1000 * 2 ** (failure - 5), 15 * 60 * 1000);
    }
    expectWait(await signIn(context.server, email, password), 900, '15 minutes');
    context.clock.advance(15 * 60 * 1000 + 15 * 60 * 1000);
    for (let i = 0; i < 5; i++) expect((await signIn(context.server, email, 'Wr0ngPassword')).status).toBe(401);
    expect((await signIn(context.server, email, password)).status).toBe(429);
  });

  it('lifts the wait of an account whose owner changes the password through a reset mail', async () => {
    const { email } = await context.server.signUp();
    for (let i = 0; i < 6; i++) await signIn(context.server, email, 'Wr0ngPassword');
    expect((await signIn(context.server, email, 'Wr0ngPassword')).status).toBe(429);
    expect((await context.server.client().post('/auth/user/reset-password', { email })).status).toBe(200);
    const id = linkIn(await context.server.mail.waitFor(email, (m) => /Reset/.test(m.subject))).searchParams.get('id');
    expect((await context.server.client().post('/auth/user/change-password', { resetUrlId: id, password: 'N3wPassword' })).status).toBe(200);
    expect((await signIn(context.server, email, 'N3wPassword')).status).toBe(200);
  });

  it('sends at most 3 reset mails an hour to one address, and answers an unknown address the same', async () => {
    const { email: known } = await context.server.signUp();
    const unknown = fresh('ghost');
    for (let i = 0; i < 4; i++) {
      const a = await context.server.client().post('/auth/user/reset-password', { email: known });
      const b = await context.server.client().post('/auth/user/reset-password', { email: unknown });
      expect([b.status, b.body, b.headers.get('retry-after')]).toEqual([a.status, a.body, a.headers.get('retry-after')]);
      if (i < 3) expect(a.status).toBe(200);
      else expectWait(a, 60, '1 minute', 'Too many emails were requested.');
    }
    const mailsToKnown = () => context.server.mail.mails.filter((m) => m.to.includes(known)).length;
    await expect.poll(mailsToKnown).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsToKnown()).toBe(3);
  });

  it('sends at most 3 invitations an hour to one address', async () => {
    const { client: admin } = await context.server.signUp({ isPlatformAdmin: true });
    const organization = await createOrganization(context.server.deps.db);
    const sites = await Promise.all([1, 2, 3, 4].map((n) => createSite(context.server.deps.db, organization.id, `Hall ${n}`)));
    const invited = fresh('invited');
    const answers: TestResponse[] = [];
    for (const site of sites) answers.push(await admin.post('/org-management/permission/site', { siteId: site.id, email: invited }));
    expect(answers.slice(0, 3).map((res) => res.status)).toEqual([200, 200, 200]);
    expectWait(answers[3]!, 60, '1 minute', 'Too many emails were requested.');
    const lastSite = await admin.get(`/org-management/permission/site/${sites[3]!.id}`);
    expect(lastSite.body.permissions.map((p: { email: string }) => p.email)).not.toContain(invited);
  });
});

describe('behind a proxy that is not listed in TRUST_PROXY', () => {
  const context = useThrottledServer(SMALL_ADDRESS_BUDGETS);

  it('ignores X-Forwarded-For: changing it does not escape the per-address budget', async () => {
    for (let i = 1; i <= 3; i++) {
      expect((await signIn(context.server, fresh('spray'), 'Wr0ngPassword', `203.0.113.${i}`)).status).toBe(401);
    }
    expectWait(await signIn(context.server, fresh('spray'), 'Wr0ngPassword', '198.51.100.77'), 1, '1 second');
    expect((await signIn(context.server, fresh('spray'), 'Wr0ngPassword')).status).toBe(429);
  });

  it('counts wrong account links as failures of the address', async () => {
    const wrong = 'not-a-real-link-id';
    expect((await context.server.client().post('/auth/user/check-reset-password', { resetUrlId: wrong })).status).toBe(400);
    expect((await context.server.client().post('/auth/user/change-password', { resetUrlId: wrong, password: 'N3wPassword' })).status).toBe(400);
    const created = await context.server.client().post('/auth/user/generic', { resetUrlId: wrong, firstName: 'A', lastName: 'B', password: 'N3wPassword' });
    expect(created.body.response).toBe('CreateAccountURLExpired');
    expectWait(await context.server.client().post('/auth/user/check-reset-password', { resetUrlId: wrong }), 1, '1 second');
    // The same budget as sign-in failures.
    expect((await signIn(context.server, fresh('after-links'), 'Wr0ngPassword')).status).toBe(429);
  });

  it('limits reset requests from one address, whatever the addresses asked for', async () => {
    for (let i = 0; i < 3; i++) expect((await context.server.client().post('/auth/user/reset-password', { email: fresh('bomb') })).status).toBe(200);
    expectWait(await context.server.client().post('/auth/user/reset-password', { email: fresh('bomb') }), 60, '1 minute', 'Too many emails were requested.');
  });
});

describe('behind a proxy listed in TRUST_PROXY', () => {
  // The test client connects from loopback, as a reverse proxy on the same host would.
  const context = useThrottledServer({ ...SMALL_ADDRESS_BUDGETS, TRUST_PROXY: '127.0.0.1' });

  it('throttles each forwarded client on its own', async () => {
    for (let i = 0; i < 3; i++) expect((await signIn(context.server, fresh('a'), 'Wr0ngPassword', '203.0.113.7')).status).toBe(401);
    expectWait(await signIn(context.server, fresh('a'), 'Wr0ngPassword', '203.0.113.7'), 1, '1 second');
    expect((await signIn(context.server, fresh('b'), 'Wr0ngPassword', '198.51.100.9')).status).toBe(401);
    const staff = await context.server.signUp();
    expect((await signIn(context.server, staff.email, staff.password, '198.51.100.9')).status).toBe(200);
  });

  it('limits invitations per inviting user, whatever address they come from', async () => {
    const { client: admin } = await context.server.signUp({ isPlatformAdmin: true });
    const organization = await createOrganization(context.server.deps.db);
    const answers: TestResponse[] = [];
    const emails = [1, 2, 3, 4].map(() => fresh('invitee'));
    for (const [i, email] of emails.entries()) {
      answers.push(
        await admin.request('POST', '/org-management/permission/organization', { organizationId: organization.id, email }, { 'x-forwarded-for': `192.0.2.${i + 1}` }),
      );
    }
    expect(answers.slice(0, 3).map((res) => res.status)).toEqual([200, 200, 200]);
    expectWait(answers[3]!, 60, '1 minute', 'Too many emails were requested.');
    const list = await admin.get(`/org-management/permission/organization?organizationId=${organization.id}`);
    expect(list.body.permissions.map((p: { email: string }) => p.email)).not.toContain(emails[3]);
    await expect(context.server.mail.waitFor(emails[3]!, () => true, 300)).rejects.toThrow(/No mail/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn } from '../../test/mail-capture.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('sign in and the session cookie', () => {
  it('signs in with a lowercased email, sets an HttpOnly SameSite cookie and answers the current user', async () => {
    const { email, password } = await server.signUp({ email: 'Mixed.Case@Example.com', firstName: 'Ada' });
    expect(email).toBe('mixed.case@example.com');
    const client = server.client();
    const res = await client.post('/auth/user/login', { email: 'MIXED.case@example.COM', password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, firstName: 'Ada', profile_image: null, isPlatformAdmin: false });
    const cookie = res.headers.getSetCookie().join(';');
    expect(cookie).toMatch(/plinth_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const me = await client.get('/auth');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
  });

  it('refuses a wrong password and an unknown email with IncorrectUsernameOrPassword', async () => {
    const { email } = await server.signUp();
    const wrong = await server.client().post('/auth/user/login', { email, password: 'Wrong0ne!' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.response).toBe('IncorrectUsernameOrPassword');
    const unknown = await server.client().post('/auth/user/login', { email: 'nobody@example.com', password: 'Wrong0ne!' });
    expect(unknown.body.response).toBe('IncorrectUsernameOrPassword');
  });

  it('names the field of bad input with a 400', async () => {
    const res = await server.client().post('/auth/user/login', { email: 'not-an-email', password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.response).toBe('InvalidEmail');
    const missing = await server.client().post('/auth/user/login', { email: 'a@b.co' });
    expect(missing.status).toBe(400);
    expect(missing.body.response).toMatch(/^password: /);
  });

  it('answers 401 to GET /auth without a session and after logout', async () => {
    expect((await server.client().get('/auth')).status).toBe(401);
    const { client } = await server.signUp();
    expect((await client.get('/auth')).status).toBe(200);
    expect((await client.post('/auth/logout')).status).toBe(200);
    expect(client.sessionToken).toBeUndefined();
    expect((await client.get('/auth')).status).toBe(401);
  });

  it('sends the security headers on every answer', async () => {
    const res = await server.client().get('/auth/login-methods');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('refuses requests a browser marks as coming from another site', async () => {
    const { client } = await server.signUp();
    const crossSite = await client.request('GET', '/auth', undefined, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.message).toBe('Requests from other sites are not accepted.');
    expect((await client.request('GET', '/auth', undefined, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('lists GENERIC only when single sign-on is not configured', async () => {
    const res = await server.client().get('/auth/login-methods');
    expect(res.body).toEqual({ methods: ['GENERIC'] });
    expect((await server.client().get('/auth/google')).status).toBe(503);
  });
});

describe('password reset through the mail', () => {
  it('mails a link that checks, changes the password once, and signs the user out elsewhere', async () => {
    const { email, client: oldSession } = await server.signUp();
    const asked = await server.client().post('/auth/user/reset-password', { email: email.toUpperCase() });
    expect(asked.status).toBe(200);
    const mail = await server.mail.waitFor(email, (m) => /Reset/.test(m.subject));
    const link = linkIn(mail);
    expect(link.origin).toBe(server.deps.config.publicUrl);
    expect(link.pathname).toBe('/reset-password');
    const id = link.searchParams.get('id')!;
    const check = await server.client().post('/auth/user/check-reset-password', { resetUrlId: id });
    expect(check.body).toEqual({ valid: true, kind: 'reset_password', email });
    const weak = await server.client().post('/auth/user/change-password', { resetUrlId: id, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.response).toBe('PasswordTooShort');
    const noDigit = await server.client().post('/auth/user/change-password', { resetUrlId: id, password: 'NoDigitsHere' });
    expect(noDigit.body.response).toBe('PasswordDoesNotHaveNumericValue');
    const ok = await server.client().post('/auth/user/change-password', { resetUrlId: id, password: 'N3wPassword' });
    expect(ok.status).toBe(200);
    expect((await oldSession.get('/auth')).status).toBe(401);
    await server.signIn(email, 'N3wPassword');
    const again = await server.client().post('/auth/user/change-password', { resetUrlId: id, password: 'An0therOne' });
    expect(again.status).toBe(400);
    expect(again.body.response).toBe('ResetPasswordURLExpired');
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const res = await server.client().post('/auth/user/reset-password', { email: 'ghost@example.com' });
    expect(res.status).toBe(200);
    await expect(server.mail.waitFor('ghost@example.com', () => true, 300)).rejects.toThrow(/No mail/);
  });

  it('refuses an expired link', async () => {
    const { email } = await server.signUp();
    await server.client().post('/auth/user/reset-password', { email });
    const id = linkIn(await server.mail.waitFor(email)).searchParams.get('id')!;
    const { accountLinks } = await import('../../db/schema.js');
    await server.deps.db.update(accountLinks).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await server.client().post('/auth/user/check-reset-password', { resetUrlId: id });
    expect(res.status).toBe(400);
    expect(res.body.response).toBe('ResetPasswordURLExpired');
  });
});

describe('the first platform admin', () => {
  it('creates the first admin through the setup link printed at start', async () => {
    const fresh = await startTestServer();
    try {
      expect(fresh.setupLink).toMatch(/\/create-account\?id=/);
      const id = new URL(fresh.setupLink!).searchParams.get('id')!;
      const check = await fresh.client().post('/auth/user/check-reset-password', { resetUrlId: id });
      expect(check.body).toEqual({ valid: true, kind: 'setup', email: null });
      const created = await fresh.client().post('/auth/user/generic', {
        resetUrlId: id,
        firstName: 'First',
        lastName: 'Admin',
        password: 'Adm1nPassword',
        email: 'Admin@Example.com',
      });
      expect(created.status).toBe(200);
      const admin = await fresh.signIn('admin@example.com', 'Adm1nPassword');
      expect((await admin.get('/auth')).body.isPlatformAdmin).toBe(true);
      const reused = await fresh.client().post('/auth/user/generic', {
        resetUrlId: id,
        password: 'Adm1nPassword',
        email: 'other@example.com',
      });
      expect(reused.body.response).toBe('CreateAccountURLExpired');
    } finally {
      await fresh.stop();
    }
  });
});

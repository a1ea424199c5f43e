import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import type { TestClient } from '../../test/test-client.js';
import { findOrInviteUser } from './users.service.js';

let issuer: OAuth2Server;
let server: TestServer;
let identity: { sub: string; email: string; given_name?: string; family_name?: string; picture?: string };

beforeAll(async () => {
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate('RS256');
  await issuer.start(0, '127.0.0.1');
  issuer.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, identity);
  });
  server = await startTestServer({
    GOOGLE_CLIENT_ID: 'plinth-test',
    GOOGLE_CLIENT_SECRET: 'plinth-secret',
    OIDC_ISSUER_URL: issuer.issuer.url!,
  });
});
afterAll(async () => {
  await server?.stop();
  await issuer?.stop();
});

/** Runs the browser's part of the flow: Plinth → the issuer's authorize page → back to Plinth. */
async function signOn(client: TestClient) {
  const start = await client.get('/auth/google');
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  expect(authorize.origin).toBe(new URL(issuer.issuer.url!).origin);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.deps.config.publicUrl}/api/v1/auth/google/callback`);
  const granted = await fetch(authorize, { redirect: 'manual' });
  expect(granted.status).toBe(302);
  const callback = new URL(granted.headers.get('location')!);
  return client.get(`/api/v1/auth/google/callback${callback.search}`);
}

describe('single sign-on through OpenID Connect', () => {
  it('offers GOOGLE_AUTH when configured', async () => {
    const res = await server.client().get('/auth/login-methods');
    expect(res.body.methods).toEqual(['GENERIC', 'GOOGLE_AUTH']);
  });

  it('signs a new identity in with an account that has no access yet', async () => {
    identity = { sub: 'oidc-new-1', email: 'New.Person@Example.com', given_name: 'New', family_name: 'Person' };
    const client = server.client();
    const done = await signOn(client);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/');
    const me = await client.get('/auth');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'new.person@example.com', firstName: 'New', lastName: 'Person', isPlatformAdmin: false });
    const orgs = await client.get('/org-management/organization');
    expect(orgs.status).toBe(200);
    expect(orgs.body).toEqual({ organizations: [], canCreate: false });
  });

  it('gives an invited user their account, after which password login says to use Google', async () => {
    const email = 'invitee.sso@example.com';
    await findOrInviteUser(server.deps, {
      email,
      scopeName: 'Test Org',
      inviter: { id: 'inviter', firstName: 'Ada', lastName: 'Admin', email: 'a@example.com' },
      ip: '127.0.0.1',
    });
    expect((await server.client().post('/auth/user/login', { email, password: 'Whatever1' })).body.response).toBe(
      'UserAccountNotCreated',
    );
    identity = { sub: 'oidc-invitee', email, picture: 'https://example.com/p.png' };
    const client = server.client();
    expect((await signOn(client)).headers.get('location')).toBe('/');
    const me = await client.get('/auth');
    expect(me.body).toMatchObject({ email, profile_image: 'https://example.com/p.png' });
    const login = await server.client().post('/auth/user/login', { email, password: 'Whatever1' });
    expect(login.status).toBe(401);
    expect(login.body.response).toBe('UserAccountCreatedWithGAuth');
  });

  it('refuses a callback whose state does not match and sends the browser back to login', async () => {
    identity = { sub: 'oidc-x', email: 'x@example.com' };
    const client = server.client();
    const start = await client.get('/auth/google');
    const granted = await fetch(new URL(start.headers.get('location')!), { redirect: 'manual' });
    const callback = new URL(granted.headers.get('location')!);
    callback.searchParams.set('state', 'forged');
    const res = await client.get(`/api/v1/auth/google/callback${callback.search}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?sso=failed');
    expect((await client.get('/auth')).status).toBe(401);
  });

  it('refuses a callback without the flow cookie', async () => {
    const res = await server.client().get('/api/v1/auth/google/callback?code=abc&state=def');
    expect(res.status).toBe(401);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@plinth/shared';
import { runCli } from './cli.js';
import { startServer } from './server.js';
import { pgliteTestConfig } from './test/databases.js';
import { TestClient } from './test/test-client.js';

/** Captures what the CLI writes, standing in for stdout or stderr. */
function capture() {
  const chunks: string[] = [];
  const stream = { write: (chunk: string) => chunks.push(chunk) > 0 } as never;
  return { stream, text: () => chunks.join('') };
}

async function cli(...argv: string[]) {
  const out = capture();
  const err = capture();
  const code = await runCli(argv, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

let dataDir: string;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-cli-'));
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
});
afterAll(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('plinth user create (embedded database)', () => {
  it('creates a user in DATA_DIR', { timeout: 60_000 }, async () => {
    const res = await cli('user', 'create', '--email', 'Ada@Example.com', '--password', 'Passw0rdX', '--first-name', 'Ada', '--platform-admin');
    expect(res.err).toBe('');
    expect(res.out).toBe('Created user ada@example.com (platform admin).\n');
    expect(res.code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
    // The lock is released when the command ends.
    expect(fs.existsSync(path.join(dataDir, 'plinth.lock'))).toBe(false);
  });

  it('prints the password rule and exits 1 for a weak password', async () => {
    const short = await cli('user', 'create', '--email', 'bob@example.com', '--password', 'Sh0rt');
    expect(short.code).toBe(1);
    expect(short.err).toContain(ERROR_MESSAGES.PasswordTooShort);
    const noDigit = await cli('user', 'create', '--email', 'bob@example.com', '--password', 'NoDigitsHere');
    expect(noDigit.code).toBe(1);
    expect(noDigit.err).toContain('Password must contain an numeric value');
    expect(noDigit.out).toBe('');
  });

  it('refuses an email that is taken', async () => {
    const res = await cli('user', 'create', '--email', 'ADA@example.com', '--password', 'An0therPass');
    expect(res.code).toBe(1);
    expect(res.err).toContain('A user with that email address already exists');
  });

  it('takes platform admin away and gives it back, and signs a user out everywhere', async () => {
    const revoke = await cli('user', 'platform-admin', '--email', 'ADA@example.com', '--revoke');
    expect(revoke).toEqual({ code: 0, out: 'ada@example.com is no longer a platform admin.\n', err: '' });
    const grant = await cli('user', 'platform-admin', '--email', 'ada@example.com', '--grant');
    expect(grant).toEqual({ code: 0, out: 'ada@example.com is a platform admin.\n', err: '' });
    const signOut = await cli('user', 'sign-out', '--email', 'ada@example.com');
    expect(signOut).toEqual({ code: 0, out: 'Signed ada@example.com out everywhere.\n', err: '' });
    const unknown = await cli('user', 'sign-out', '--email', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('plinth: No user has the email nobody@example.com.\n');
    const both = await cli('user', 'platform-admin', '--email', 'ada@example.com', '--grant', '--revoke');
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/give exactly one of --grant and --revoke/);
  });

  it('prints the usage for missing options or an unknown command', async () => {
    const missing = await cli('user', 'create', '--email', 'x@example.com');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--email and --password are required/);
    const unknown = await cli('organization', 'delete');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^Usage:/);
  });

  it('refuses while a server holds the same DATA_DIR, and the server signs in the user it created', { timeout: 60_000 }, async () => {
    const server = await startServer(pgliteTestConfig(dataDir));
    try {
      const res = await cli('user', 'create', '--email', 'carol@example.com', '--password', 'Car0lPass');
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/is in use by a running Plinth server/);
      const client = new TestClient(server.url);
      const login = await client.post('/auth/user/login', { email: 'ada@example.com', password: 'Passw0rdX' });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ email: 'ada@example.com', firstName: 'Ada', isPlatformAdmin: true });
      const carol = await new TestClient(server.url).post('/auth/user/login', { email: 'carol@example.com', password: 'Car0lPass' });
      expect(carol.status).toBe(401);
    } finally {
      await server.close();
    }
    const after = await cli('user', 'create', '--email', 'carol@example.com', '--password', 'Car0lPass');
    expect(after.code).toBe(0);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './modules/auth/users.service.js';
import { startServer, type RunningServer } from './server.js';
import { pgliteTestConfig } from './test/databases.js';
import { TestClient } from './test/test-client.js';

const journal = JSON.parse(
  fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../drizzle/meta/_journal.json'), 'utf8'),
) as { entries: unknown[] };

let dataDir: string;

function start(): Promise<RunningServer> {
  return startServer(pgliteTestConfig(dataDir));
}

async function migrationCount(server: RunningServer): Promise<number> {
  const result = await server.deps.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
  return Number(rows[0]!.n);
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pglite-'));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded database (PGlite in DATA_DIR)', () => {
  it('starts, migrates, signs a user in and keeps the data across a restart', { timeout: 90_000 }, async () => {
    let organizationId: string;
    let cookie: string;
    const first = await start();
    try {
      expect(first.deps.database.kind).toBe('pglite');
      expect(await migrationCount(first)).toBe(journal.entries.length);
      expect(fs.existsSync(path.join(dataDir, 'plinth.lock'))).toBe(true);
      expect(first.setupLink).toMatch(/\/create-account\?id=/);
      await createUser(first.deps, { email: 'Owner@Example.com', password: 'Own3rPassword', firstName: 'Olga', isPlatformAdmin: true });
      const client = new TestClient(first.url);
      const login = await client.post('/auth/user/login', { email: 'owner@example.com', password: 'Own3rPassword' });
      expect(login.status).toBe(200);
      const created = await client.post('/org-management/organization', { name: 'Embedded Museum' });
      expect(created.status).toBe(200);
      expect(created.body.name).toBe('Embedded Museum');
      organizationId = created.body.id;
      cookie = client.cookieHeader;
    } finally {
      await first.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'plinth.lock'))).toBe(false);

    const second = await start();
    try {
      expect(await migrationCount(second)).toBe(journal.entries.length);
      // No setup link: a user exists already.
      expect(second.setupLink).toBeNull();
      const client = new TestClient(second.url);
      const login = await client.post('/auth/user/login', { email: 'owner@example.com', password: 'Own3rPassword' });
      expect(login.status).toBe(200);
      expect(login.body.firstName).toBe('Olga');
      const list = await client.get('/org-management/organization');
      expect(list.status).toBe(200);
      expect(list.body.organizations.map((o: { id: string; name: string }) => [o.id, o.name])).toEqual([
        [organizationId, 'Embedded Museum'],
      ]);
      // The session made before the restart is still valid.
      const old = await new TestClient(second.url).request('GET', '/auth', undefined, { cookie });
      expect(old.status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

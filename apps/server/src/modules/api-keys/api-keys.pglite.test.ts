import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server.js';
import { pgliteTestConfig } from '../../test/databases.js';
import { createOrganization, createSite } from '../../test/factories.js';
import { TestClient } from '../../test/test-client.js';
import { createUser } from '../auth/users.service.js';

/** API keys on the embedded database (PGlite): site-scoped keys (a uuid array), the counted call, revocation. */

let dataDir: string;
let server: RunningServer;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pglite-keys-'));
  server = await startServer(pgliteTestConfig(dataDir, { API_KEY_RATE_LIMIT: '2' }));
}, 90_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('API keys on PGlite', () => {
  it('creates a site-scoped key, calls with it, throttles it and refuses it once revoked', { timeout: 60_000 }, async () => {
    await createUser(server.deps, { email: 'owner@example.com', password: 'Own3rPassword', firstName: 'Olga', isPlatformAdmin: true });
    const admin = new TestClient(server.url);
    expect((await admin.post('/auth/user/login', { email: 'owner@example.com', password: 'Own3rPassword' })).status).toBe(200);
    const org = await createOrganization(server.deps.db);
    const [site, other] = [await createSite(server.deps.db, org.id), await createSite(server.deps.db, org.id)];
    const created = await admin.post(`/org-management/organization/${org.id}/api-keys`, { name: 'Embedded', role: 'viewer', siteIds: [site.id] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const call = (siteId: string) => new TestClient(server.url).request('GET', `/org-management/site/${siteId}`, undefined, { authorization: `Bearer ${created.body.key}` });
    expect((await call(site.id)).status).toBe(200);
    expect((await call(other.id)).status).toBe(404);
    expect((await call(site.id)).status).toBe(429);
    expect((await admin.delete(`/org-management/api-keys/${created.body.id}`)).status).toBe(200);
    const refused = await call(site.id);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('This API key has been revoked.');
  });
});

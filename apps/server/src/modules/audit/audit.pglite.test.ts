import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageSchema } from '@plinth/shared';
import { startServer, type RunningServer } from '../../server.js';
import { pgliteTestConfig } from '../../test/databases.js';
import { createOrganization } from '../../test/factories.js';
import { TestClient } from '../../test/test-client.js';
import { createUser } from '../auth/users.service.js';
import { runAuditRetention } from './audit-retention.js';
import { verifyAuditChains } from './audit-verify.js';

/** The same chain on the embedded database: concurrent appends, reading, tamper detection, retention. */

let dataDir: string;
let server: RunningServer;
let client: TestClient;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pglite-audit-'));
  server = await startServer(pgliteTestConfig(dataDir));
  await createUser(server.deps, { email: 'owner@example.com', password: 'Own3rPassword', firstName: 'Olga', isPlatformAdmin: true });
  client = new TestClient(server.url);
  expect((await client.post('/auth/user/login', { email: 'owner@example.com', password: 'Own3rPassword' })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the audit log on the embedded database (PGlite)', () => {
  it('keeps the chain under concurrent appends, finds a changed entry, and drops old entries', { timeout: 60_000 }, async () => {
    const org = await createOrganization(server.deps.db);
    const context = { actor: { kind: 'user' as const, id: 'u', label: 'owner@example.com' }, address: '127.0.0.1' };
    const calls = Array.from({ length: 10 }, (_, i) => client.put(`/org-management/organization/${org.id}/setting/support_contact`, { value: `v${i}` }));
    const writes = Array.from({ length: 40 }, (_, i) => server.deps.audit.record(context, { organizationId: org.id, resource: 'site', resourceId: `s${i}`, action: 'update' }));
    await Promise.all([...calls, ...writes]);
    const page = AuditPageSchema.parse((await client.get(`/audit/organization/${org.id}/entries?pageSize=500`)).body);
    expect(page.entries.map((e) => e.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => 50 - i));
    const [report] = (await verifyAuditChains(server.deps.db)).filter((r) => r.organizationId === org.id);
    expect(report).toMatchObject({ entries: 50, problem: null });

    await server.deps.db.execute(sql`update audit_entries set actor_label = 'someone else' where organization_id = ${org.id} and sequence = 7`);
    const [tampered] = (await verifyAuditChains(server.deps.db)).filter((r) => r.organizationId === org.id);
    expect(tampered?.problem).toMatchObject({ sequence: 7 });
    await server.deps.db.execute(sql`update audit_entries set actor_label = 'owner@example.com' where organization_id = ${org.id} and sequence = 7`);

    const later = { now: () => new Date(Date.now() + 400 * 86_400_000) };
    expect((await runAuditRetention({ db: server.deps.db, clock: later, logger: server.deps.logger })).get(org.id)).toBe(50);
    const [after] = (await verifyAuditChains(server.deps.db)).filter((r) => r.organizationId === org.id);
    expect(after).toMatchObject({ entries: 0, lastSequence: 50, problem: null });
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExhibit, createOrganization, createSite } from '../../test/factories.js';
import { freeGumbandBasePort, startGumbandExhibit, type GumbandProcess } from '../../test/gumband-kit.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/**
 * Gumband compatibility on two server instances of one deployment (same database, same Redis):
 * the published SDK connected to A is driven through B, and its cookie from A is good on B.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const wait = { timeout: 20_000, interval: 50 };

let a: TestServer;
let b: TestServer;
let basePortA: number;
let basePortB: number;
let adminB: TestClient;
let siteId: string;
let exhibit: GumbandProcess | undefined;

beforeAll(async () => {
  basePortA = await freeGumbandBasePort();
  a = await startTestServer({ REDIS_URL, GUMBAND_COMPAT: '1', GUMBAND_COMPAT_BASE_PORT: String(basePortA) });
  basePortB = await freeGumbandBasePort();
  b = await startTestServer({ REDIS_URL, GUMBAND_COMPAT: '1', GUMBAND_COMPAT_BASE_PORT: String(basePortB) }, { databaseUrl: a.databaseUrl });
  const admin = await a.signUp({ isPlatformAdmin: true });
  adminB = await b.signIn(admin.email, admin.password);
  const org = await createOrganization(a.deps.db);
  siteId = (await createSite(a.deps.db, org.id)).id;
});
afterAll(async () => {
  await exhibit?.stop();
  // B shares A's database; A drops it.
  await b?.stop();
  await a?.stop();
});

const linesOf = (process: GumbandProcess, event: string): any[] => process.lines.filter((l) => l.event === event).map((l) => l.payload);

describe('a Gumband exhibit across two server instances', () => {
  it('is driven through the instance it is not connected to', async () => {
    const record = await createExhibit(a.deps.db, siteId);
    const token = (await adminB.post('/auth/exhibit', { name: 'gumband', exhibitId: record.id })).body.token as string;
    exhibit = startGumbandExhibit({ exhibitId: record.id, token, basePort: basePortA });
    await vi.waitFor(() => expect(linesOf(exhibit!, 'ready')).toHaveLength(1), wait);
    await vi.waitFor(async () => expect((await adminB.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body.online).toBe(true), wait);

    expect((await adminB.post(`/exhibit-management/exhibit/${record.id}/control/volume?itemId=down`, {})).status).toBe(200);
    expect((await adminB.post(`/exhibit-management/exhibit/${record.id}/setting/prod_api`, { value: true })).status).toBe(200);
    expect((await adminB.post(`/exhibit-management/exhibit/${record.id}/opMode`, { opMode: 'On' })).status).toBe(200);
    await vi.waitFor(() => {
      expect(linesOf(exhibit!, 'control')).toEqual([expect.objectContaining({ id: 'volume/down' })]);
      expect(linesOf(exhibit!, 'setting')).toContainEqual(expect.objectContaining({ id: 'prod_api', value: true }));
      expect(linesOf(exhibit!, 'opMode')).toEqual([{ value: true }]);
    }, wait);
    await vi.waitFor(async () => {
      const manifest = (await adminB.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body;
      expect(manifest.manifest.settings.find((s: any) => s.manifestId === 'prod_api')).toMatchObject({ value: true, applied: true });
    }, wait);

    // The cookie A set is a credential any node checks.
    const signedIn = await fetch(`http://127.0.0.1:${basePortA}/api/v1/auth/exhibit/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exhibitId: record.id, token }),
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const onB = await fetch(`http://127.0.0.1:${basePortB + 6}/api/v1/exhibit-management/exhibit/${record.id}`, { headers: { cookie } });
    expect(await onB.json()).toMatchObject({ response: 'success', exhibit: { id: record.id, opMode: 'On', online: true } });
  });
});

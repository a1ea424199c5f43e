import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExhibit, createOrganization, createSite } from '../test/factories.js';
import { openExhibitSocket } from '../test/exhibit-socket.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

let server: TestServer;
let admin: TestClient;
let siteId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  siteId = (await createSite(server.deps.db, (await createOrganization(server.deps.db)).id)).id;
});
afterAll(async () => {
  await server?.stop();
});

/** A manifest as Gumband's files hold it: wrapped in one `manifest` key. */
const GUMBAND_FILE = {
  manifest: {
    statuses: [{ id: 'screen-status', type: 'String', display: 'Screen is' }],
    controls: [{ id: 'reload-frontend', type: 'Single', display: 'Reload' }],
    settings: [{ id: 'game-duration', type: 'IntegerInput', display: 'Game duration', default: 60 }],
  },
};

describe('a manifest sent over the exhibit socket', () => {
  it('in the wrapped form {"manifest": {...}} is stored as the manifest it wraps', async () => {
    const exhibit = await createExhibit(server.deps.db, siteId);
    const sdk = await openExhibitSocket(server, admin, exhibit.id);
    sdk.send({ type: 'manifest', requestId: 'w', manifest: GUMBAND_FILE });
    expect(await sdk.waitFor((m) => m.type === 'manifest.ok' || m.type === 'manifest.error')).toEqual({ type: 'manifest.ok', requestId: 'w' });
    sdk.close();
    const stored = (await admin.get(`/exhibit-management/exhibit/${exhibit.id}/manifest`)).body;
    expect(stored.manifest.statuses.map((s: { manifestId: string }) => s.manifestId)).toEqual(['screen-status']);
    expect(stored.manifest.controls.map((c: { manifestId: string }) => c.manifestId)).toEqual(['reload-frontend']);
    expect(stored.manifest.settings.map((s: { manifestId: string; value: unknown }) => [s.manifestId, s.value])).toEqual([['game-duration', 60]]);
  });

  it('with an unknown top-level key is refused with a 400 naming the key, and nothing is stored', async () => {
    const exhibit = await createExhibit(server.deps.db, siteId);
    const sdk = await openExhibitSocket(server, admin, exhibit.id);
    sdk.send({ type: 'manifest', requestId: 'u', manifest: { ...GUMBAND_FILE.manifest, setting: [] } });
    expect(await sdk.waitFor((m) => m.type === 'manifest.ok' || m.type === 'manifest.error')).toEqual({
      type: 'manifest.error',
      requestId: 'u',
      status: 400,
      message: expect.stringContaining('"setting"'),
    });
    sdk.close();
    const stored = (await admin.get(`/exhibit-management/exhibit/${exhibit.id}/manifest`)).body;
    expect(stored.manifest.statuses).toEqual([]);
  });

  it('with a number its stored column cannot hold is refused with a 400 naming the field, as is such an ack', async () => {
    const exhibit = await createExhibit(server.deps.db, siteId);
    const sdk = await openExhibitSocket(server, admin, exhibit.id);
    sdk.send({ type: 'manifest', requestId: 'big', manifest: { statuses: [{ id: 'count', order: 2 ** 40 }] } });
    expect(await sdk.waitFor((m) => m.type === 'manifest.ok' || m.type === 'manifest.error' || m.type === 'error')).toEqual({
      type: 'manifest.error',
      requestId: 'big',
      status: 400,
      message: expect.stringMatching(/statuses\[0\] "count": order: .*2147483647/),
    });
    sdk.send({ type: 'ack', settings: [{ id: 'x', version: 2 ** 40 }] });
    expect(await sdk.waitFor((m) => m.type === 'error')).toEqual({ type: 'error', message: expect.stringMatching(/^Invalid message: settings\.0\.version /) });
    sdk.close();
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exhibitConnections, exhibits } from '../../db/schema.js';
import { createExhibit, createOrganization, createSite } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { releaseExhibitsHeldBy, resetStaleOnline } from './exhibit-presence.repository.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

async function exhibitIn(values: { online: boolean; heldBy?: string | null }) {
  const organization = await createOrganization(server.deps.db);
  const site = await createSite(server.deps.db, organization.id);
  return createExhibit(server.deps.db, site.id, undefined, values);
}

async function state(exhibitId: string) {
  const [row] = await server.deps.db.select({ online: exhibits.online, heldBy: exhibits.heldBy, lastOnlineChange: exhibits.lastOnlineChange }).from(exhibits).where(eq(exhibits.id, exhibitId));
  const history = await server.deps.db.select({ online: exhibitConnections.online, reason: exhibitConnections.reason, at: exhibitConnections.at }).from(exhibitConnections).where(eq(exhibitConnections.exhibitId, exhibitId));
  return { ...row, history };
}

describe('taking exhibits offline together', () => {
  it('releases only the exhibits the lost node held, each with a node_lost history row at the given time', async () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const [lost, alive] = [randomUUID(), randomUUID()];
    const held = await exhibitIn({ online: true, heldBy: lost });
    const other = await exhibitIn({ online: true, heldBy: alive });
    expect(await releaseExhibitsHeldBy(server.deps.db, lost, at)).toEqual([held.id]);
    expect(await state(held.id)).toEqual({ online: false, heldBy: null, lastOnlineChange: at, history: [{ online: false, reason: 'node_lost', at }] });
    expect(await state(other.id)).toMatchObject({ online: true, heldBy: alive, history: [] });
    // A second survivor releasing the same node finds nothing left.
    expect(await releaseExhibitsHeldBy(server.deps.db, lost, at)).toEqual([]);
  });

  it('at a start with no connection possible, takes every online exhibit offline with a restart history row', async () => {
    const at = new Date('2026-11-27T11:00:00Z');
    const online = await exhibitIn({ online: true, heldBy: randomUUID() });
    const offline = await exhibitIn({ online: false });
    expect(await resetStaleOnline(server.deps.db, at)).toBeGreaterThanOrEqual(1);
    expect(await state(online.id)).toEqual({ online: false, heldBy: null, lastOnlineChange: at, history: [{ online: false, reason: 'restart', at }] });
    expect((await state(offline.id)).history).toEqual([]);
  });
});

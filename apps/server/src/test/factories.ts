import { ORGANIZATION_SETTINGS, SITE_SETTINGS, topicFor, type RealtimeEvent, type Role } from '@plinth/shared';
import type { Db } from '../db/client.js';
import {
  exhibitPermissions,
  exhibits,
  hardware,
  organizationPermissions,
  organizationSettings,
  organizations,
  sitePermissions,
  siteSettings,
  sites,
} from '../db/schema.js';
import type { TestClient } from './test-client.js';
import type { TestServer } from './test-server.js';

let sequence = 0;

/** A name no other test of the run uses (organization names are unique). */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix} ${sequence}-${Math.random().toString(36).slice(2, 7)}`;
}

/** An organization with its default settings, as POST /org-management/organization makes it. */
export async function createOrganization(db: Db, name = uniqueName('Org')) {
  const [org] = await db.insert(organizations).values({ name }).returning();
  await db.insert(organizationSettings).values(
    ORGANIZATION_SETTINGS.map((def) => ({
      organizationId: org!.id,
      idString: def.idString,
      display: def.display,
      value: def.defaultValue,
      inherited: def.inherited ?? false,
    })),
  );
  return org!;
}

/** A site with its default settings, as POST /org-management/site makes it. */
export async function createSite(db: Db, organizationId: string, name = uniqueName('Site')) {
  const [site] = await db.insert(sites).values({ organizationId, name }).returning();
  await db.insert(siteSettings).values(
    SITE_SETTINGS.map((def) => ({ siteId: site!.id, idString: def.idString, display: def.display, value: def.defaultValue })),
  );
  return site!;
}

/** An exhibit in a site; `values` sets any other column (online, opMode, leaderId, manifestLocked…). */
export async function createExhibit(
  db: Db,
  siteId: string,
  name = uniqueName('Exhibit'),
  values: Omit<Partial<typeof exhibits.$inferInsert>, 'siteId' | 'name'> = {},
) {
  const [exhibit] = await db.insert(exhibits).values({ manifestLocked: false, ...values, siteId, name }).returning();
  return exhibit!;
}

/** A hardware board in a site; `values` sets any other column (exhibitId, online, peripherals…). */
export async function createHardware(
  db: Db,
  siteId: string,
  name = uniqueName('Board'),
  values: Omit<Partial<typeof hardware.$inferInsert>, 'siteId' | 'name'> = {},
) {
  const [board] = await db.insert(hardware).values({ ...values, siteId, name }).returning();
  return board!;
}

export type GrantScope = 'organization' | 'site' | 'exhibit';

/** Gives a user a role on an organization, a site or an exhibit (what the permission routes store); answers the grant's id. */
export async function grant(db: Db, scope: GrantScope, id: string, userId: string, role: Role): Promise<string> {
  if (scope === 'organization') {
    const [row] = await db.insert(organizationPermissions).values({ organizationId: id, userId, role }).returning();
    return row!.id;
  } else if (scope === 'site') {
    const [row] = await db.insert(sitePermissions).values({ siteId: id, userId, role }).returning();
    return row!.id;
  }
  const [row] = await db.insert(exhibitPermissions).values({ exhibitId: id, userId, role }).returning();
  return row!.id;
}

/** One grant to hand out: the role on the organization, site or exhibit with that id. */
export type GrantSpec = [scope: GrantScope, id: string, role: Role];

/** A new signed-in user holding the given grants (given in order), with the ids of those grants. */
export async function signUpWith(server: TestServer, ...grants: GrantSpec[]) {
  const user = await server.signUp();
  const grantIds: string[] = [];
  for (const [scope, id, role] of grants) grantIds.push(await grant(server.deps.db, scope, id, user.id, role));
  return { ...user, grantIds };
}

/** The client of a new signed-in user holding the given grants. */
export async function userWith(server: TestServer, ...grants: GrantSpec[]): Promise<TestClient> {
  return (await signUpWith(server, ...grants)).client;
}

/**
 * An organization with two sites ('A wing', 'B wing') and an exhibit ('Pendulum') in the first,
 * plus another organization with a site ('Elsewhere') and the client of its manager (`outsider`).
 */
export async function createWorld(server: TestServer) {
  const db = server.deps.db;
  const org = await createOrganization(db, uniqueName('Museum'));
  const siteA = await createSite(db, org.id, 'A wing');
  const siteB = await createSite(db, org.id, 'B wing');
  const exhibit = await createExhibit(db, siteA.id, 'Pendulum');
  const other = await createOrganization(db, uniqueName('Other'));
  const otherSite = await createSite(db, other.id, 'Elsewhere');
  const outsider = await userWith(server, ['organization', other.id, 'MANAGER']);
  return { org, siteA, siteB, exhibit, other, otherSite, outsider };
}

/** The realtime events published on an exhibit's or a board's topic while `run` runs. */
export async function eventsDuring(
  server: TestServer,
  kind: 'exhibit' | 'hardware',
  id: string,
  run: () => Promise<unknown>,
): Promise<RealtimeEvent[]> {
  const events: RealtimeEvent[] = [];
  const stop = server.deps.hub.subscribe(topicFor(kind, id), (event) => events.push(event));
  try {
    await run();
  } finally {
    stop();
  }
  return events;
}

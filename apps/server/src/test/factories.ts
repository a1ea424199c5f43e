import type { RealtimeEvent, Role } from '@plinth/shared';
import type { Db } from '../db/client.js';
import { insertExhibit, type NewExhibit } from '../modules/exhibit/exhibit.repository.js';
import { insertHardware, type NewHardware } from '../modules/hardware/hardware.repository.js';
import { insertOrganization } from '../modules/organization/organization.repository.js';
import { insertGrant, type GrantScope } from '../modules/permission/permission.repository.js';
import { insertSite } from '../modules/site/site.repository.js';
import { listenToAccessChanges } from '../realtime/access-notices.js';
import type { AccessNotice } from '../realtime/hub-messages.js';
import type { TestClient } from './test-client.js';
import type { TestServer } from './test-server.js';

/*
 * Test data made through the repositories' own inserts, so a record made here is exactly what
 * the server makes (an organization or site with its default settings, a grant in its table).
 */

let sequence = 0;

/** A name no other test of the run uses (organization names are unique). */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix} ${sequence}-${Math.random().toString(36).slice(2, 7)}`;
}

/** An organization with its default settings, as POST /org-management/organization makes it. */
export async function createOrganization(db: Db, name = uniqueName('Org')) {
  return insertOrganization(db, name);
}

/** A site with its default settings, as POST /org-management/site makes it. */
export async function createSite(db: Db, organizationId: string, name = uniqueName('Site')) {
  return insertSite(db, { organizationId, name });
}

/** An exhibit in a site; `values` sets any other column (online, opMode, leaderId, manifestLocked…). */
export async function createExhibit(
  db: Db,
  siteId: string,
  name = uniqueName('Exhibit'),
  values: Omit<Partial<NewExhibit>, 'siteId' | 'name'> = {},
) {
  return insertExhibit(db, { manifestLocked: false, ...values, siteId, name });
}

/** A hardware board in a site; `values` sets any other column (exhibitId, online, peripherals…). */
export async function createHardware(
  db: Db,
  siteId: string,
  name = uniqueName('Board'),
  values: Omit<Partial<NewHardware>, 'siteId' | 'name'> = {},
) {
  return insertHardware(db, { ...values, siteId, name });
}

/** Gives a user a role on an organization, a site or an exhibit (what the permission routes store); answers the grant's id. */
export async function grant(db: Db, scope: GrantScope, id: string, userId: string, role: Role): Promise<string> {
  return insertGrant(db, { scope, scopeId: id, userId, role });
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
  const stop = server.deps.hub.subscribe(kind, id, (event: RealtimeEvent) => events.push(event));
  try {
    await run();
  } finally {
    stop();
  }
  return events;
}

/** The access notices announced for `userId` while `run` runs. */
export async function accessNoticesDuring(server: TestServer, userId: string, run: () => Promise<unknown>): Promise<AccessNotice[]> {
  const notices: AccessNotice[] = [];
  const listener = listenToAccessChanges(server.deps.hub, userId, (notice) => notices.push(notice));
  await listener.ready;
  try {
    await run();
  } finally {
    listener();
  }
  return notices;
}

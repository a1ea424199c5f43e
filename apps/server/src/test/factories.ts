import { ORGANIZATION_SETTINGS, SITE_SETTINGS, type Role } from '@plinth/shared';
import type { Db } from '../db/client.js';
import {
  exhibitPermissions,
  exhibits,
  organizationPermissions,
  organizationSettings,
  organizations,
  sitePermissions,
  siteSettings,
  sites,
} from '../db/schema.js';

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

export async function createExhibit(
  db: Db,
  siteId: string,
  name = uniqueName('Exhibit'),
  options: { manifestLocked?: boolean } = {},
) {
  const [exhibit] = await db
    .insert(exhibits)
    .values({ siteId, name, manifestLocked: options.manifestLocked ?? false })
    .returning();
  return exhibit!;
}

export type GrantScope = 'organization' | 'site' | 'exhibit';

/** Gives a user a role on an organization, a site or an exhibit (what the permission routes store). */
export async function grant(db: Db, scope: GrantScope, id: string, userId: string, role: Role): Promise<void> {
  if (scope === 'organization') {
    await db.insert(organizationPermissions).values({ organizationId: id, userId, role });
  } else if (scope === 'site') {
    await db.insert(sitePermissions).values({ siteId: id, userId, role });
  } else {
    await db.insert(exhibitPermissions).values({ exhibitId: id, userId, role });
  }
}

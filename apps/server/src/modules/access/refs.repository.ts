import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idIn } from '../../db/id-list.js';
import { exhibits, hardware, organizations, sites } from '../../db/schema.js';
import type { ExhibitRef, HardwareRef, SiteRef } from './grants.js';

/** Where exhibits sit (site and organization), to resolve roles. Unknown ids are left out; every id must be well formed (isId). */
export async function findExhibitRefs(db: Db, ids: string[]): Promise<ExhibitRef[]> {
  if (!ids.length) return [];
  return db
    .select({ id: exhibits.id, siteId: exhibits.siteId, organizationId: sites.organizationId })
    .from(exhibits)
    .innerJoin(sites, eq(sites.id, exhibits.siteId))
    .where(idIn(exhibits.id, ids));
}

/** Where hardware units sit (site, organization, exhibit), as findExhibitRefs. */
export async function findHardwareRefs(db: Db, ids: string[]): Promise<HardwareRef[]> {
  if (!ids.length) return [];
  return db
    .select({
      id: hardware.id,
      siteId: hardware.siteId,
      organizationId: sites.organizationId,
      exhibitId: hardware.exhibitId,
    })
    .from(hardware)
    .innerJoin(sites, eq(sites.id, hardware.siteId))
    .where(idIn(hardware.id, ids));
}

/** An organization's id and name, as permission calls and invitations name it. */
export async function findOrganizationRef(db: Db, id: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, id));
  return row;
}

/** A site with its organization (id and name). */
export async function findSiteRef(db: Db, id: string): Promise<(SiteRef & { name: string; organizationName: string }) | undefined> {
  const [row] = await db
    .select({
      id: sites.id,
      name: sites.name,
      organizationId: sites.organizationId,
      organizationName: organizations.name,
    })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(eq(sites.id, id));
  return row;
}

/** An exhibit with where it sits, the names an invitation or a mail gives them, and whether it is online. */
export type ExhibitNamedRef = ExhibitRef & { name: string; siteName: string; organizationName: string; online: boolean; lastOnlineChange: Date | null };

export async function findExhibitNamedRef(db: Db, id: string): Promise<ExhibitNamedRef | undefined> {
  const [row] = await db
    .select({
      id: exhibits.id,
      name: exhibits.name,
      siteId: exhibits.siteId,
      siteName: sites.name,
      organizationId: sites.organizationId,
      organizationName: organizations.name,
      online: exhibits.online,
      lastOnlineChange: exhibits.lastOnlineChange,
    })
    .from(exhibits)
    .innerJoin(sites, eq(sites.id, exhibits.siteId))
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(eq(exhibits.id, id));
  return row;
}

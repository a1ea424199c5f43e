import { eq } from 'drizzle-orm';
import type { Role } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibitPermissions, exhibits, organizationPermissions, sitePermissions, sites } from '../../db/schema.js';

/** Every grant one user holds, with where each granted thing sits (to resolve roles down the chain). */
export type UserGrantRows = {
  organizations: { organizationId: string; role: Role }[];
  sites: { siteId: string; role: Role; organizationId: string }[];
  exhibits: { exhibitId: string; role: Role; siteId: string; organizationId: string }[];
};

/** The user's grants on organizations, sites and exhibits (three queries at once). */
export async function listUserGrantRows(db: Db, userId: string): Promise<UserGrantRows> {
  const [organizationRows, siteRows, exhibitRows] = await Promise.all([
    db
      .select({ organizationId: organizationPermissions.organizationId, role: organizationPermissions.role })
      .from(organizationPermissions)
      .where(eq(organizationPermissions.userId, userId)),
    db
      .select({ siteId: sitePermissions.siteId, role: sitePermissions.role, organizationId: sites.organizationId })
      .from(sitePermissions)
      .innerJoin(sites, eq(sites.id, sitePermissions.siteId))
      .where(eq(sitePermissions.userId, userId)),
    db
      .select({
        exhibitId: exhibitPermissions.exhibitId,
        role: exhibitPermissions.role,
        siteId: exhibits.siteId,
        organizationId: sites.organizationId,
      })
      .from(exhibitPermissions)
      .innerJoin(exhibits, eq(exhibits.id, exhibitPermissions.exhibitId))
      .innerJoin(sites, eq(sites.id, exhibits.siteId))
      .where(eq(exhibitPermissions.userId, userId)),
  ]);
  return { organizations: organizationRows, sites: siteRows, exhibits: exhibitRows };
}

import { and, asc, eq } from 'drizzle-orm';
import type { Role } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { organizationPermissions, organizations, sitePermissions, users } from '../../db/schema.js';

/** A grant joined with the user it is for, as the permission lists show it. */
export type PermissionRow = {
  id: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  accountCreated: boolean;
};

/** Where a grant lives: the organization, or the site (with its organization). */
export type OrganizationGrant = { id: string; userId: string; organizationId: string };
export type SiteGrant = { id: string; userId: string; siteId: string };

const permissionColumns = {
  userId: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  accountCreated: users.accountCreated,
};

export async function findOrganization(db: Db, id: string): Promise<{ id: string; name: string } | undefined> {
  const [row] = await db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, id));
  return row;
}

export async function listOrganizationPermissionRows(db: Db, organizationId: string): Promise<PermissionRow[]> {
  return db
    .select({ id: organizationPermissions.id, role: organizationPermissions.role, ...permissionColumns })
    .from(organizationPermissions)
    .innerJoin(users, eq(users.id, organizationPermissions.userId))
    .where(eq(organizationPermissions.organizationId, organizationId))
    .orderBy(asc(users.email));
}

export async function findOrganizationPermissionRow(db: Db, id: string): Promise<PermissionRow | undefined> {
  const [row] = await db
    .select({ id: organizationPermissions.id, role: organizationPermissions.role, ...permissionColumns })
    .from(organizationPermissions)
    .innerJoin(users, eq(users.id, organizationPermissions.userId))
    .where(eq(organizationPermissions.id, id));
  return row;
}

export async function findOrganizationGrant(db: Db, id: string): Promise<OrganizationGrant | undefined> {
  const [row] = await db
    .select({ id: organizationPermissions.id, userId: organizationPermissions.userId, organizationId: organizationPermissions.organizationId })
    .from(organizationPermissions)
    .where(eq(organizationPermissions.id, id));
  return row;
}

export async function hasOrganizationGrant(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: organizationPermissions.id })
    .from(organizationPermissions)
    .where(and(eq(organizationPermissions.organizationId, organizationId), eq(organizationPermissions.userId, userId)));
  return rows.length > 0;
}

/** Answers the new grant's id. */
export async function insertOrganizationGrant(db: Db, organizationId: string, userId: string, role: Role): Promise<string> {
  const [row] = await db
    .insert(organizationPermissions)
    .values({ organizationId, userId, role })
    .returning({ id: organizationPermissions.id });
  return row!.id;
}

export async function updateOrganizationGrantRole(db: Db, id: string, role: Role): Promise<void> {
  await db.update(organizationPermissions).set({ role }).where(eq(organizationPermissions.id, id));
}

export async function deleteOrganizationGrant(db: Db, id: string): Promise<void> {
  await db.delete(organizationPermissions).where(eq(organizationPermissions.id, id));
}

export async function listSitePermissionRows(db: Db, siteId: string): Promise<PermissionRow[]> {
  return db
    .select({ id: sitePermissions.id, role: sitePermissions.role, ...permissionColumns })
    .from(sitePermissions)
    .innerJoin(users, eq(users.id, sitePermissions.userId))
    .where(eq(sitePermissions.siteId, siteId))
    .orderBy(asc(users.email));
}

export async function findSitePermissionRow(db: Db, id: string): Promise<PermissionRow | undefined> {
  const [row] = await db
    .select({ id: sitePermissions.id, role: sitePermissions.role, ...permissionColumns })
    .from(sitePermissions)
    .innerJoin(users, eq(users.id, sitePermissions.userId))
    .where(eq(sitePermissions.id, id));
  return row;
}

export async function findSiteGrant(db: Db, id: string): Promise<SiteGrant | undefined> {
  const [row] = await db
    .select({ id: sitePermissions.id, userId: sitePermissions.userId, siteId: sitePermissions.siteId })
    .from(sitePermissions)
    .where(eq(sitePermissions.id, id));
  return row;
}

export async function hasSiteGrant(db: Db, siteId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: sitePermissions.id })
    .from(sitePermissions)
    .where(and(eq(sitePermissions.siteId, siteId), eq(sitePermissions.userId, userId)));
  return rows.length > 0;
}

/** Answers the new grant's id. */
export async function insertSiteGrant(db: Db, siteId: string, userId: string, role: Role): Promise<string> {
  const [row] = await db.insert(sitePermissions).values({ siteId, userId, role }).returning({ id: sitePermissions.id });
  return row!.id;
}

export async function updateSiteGrantRole(db: Db, id: string, role: Role): Promise<void> {
  await db.update(sitePermissions).set({ role }).where(eq(sitePermissions.id, id));
}

export async function deleteSiteGrant(db: Db, id: string): Promise<void> {
  await db.delete(sitePermissions).where(eq(sitePermissions.id, id));
}

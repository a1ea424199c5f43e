import { and, asc, eq, sql } from 'drizzle-orm';
import type { Role } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { exhibitPermissions, organizationPermissions, sitePermissions, users } from '../../db/schema.js';

/** What a grant gives a role on; each kind has its own table (organization, site, exhibit permissions). */
export type GrantScope = 'organization' | 'site' | 'exhibit';

/** An organization, a site or an exhibit, by its id. */
export type ScopeRef<S extends GrantScope = GrantScope> = { scope: S; id: string };

/** One grant, by its id and the table it is in. */
export type GrantRef<S extends GrantScope = GrantScope> = { scope: S; grantId: string };

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

/** Who holds a grant, and the id of the thing it is on. */
export type GrantRow = { id: string; userId: string; scopeId: string };

/** A grant to store: `role` for `userId` on the thing `scopeId` of `scope`. */
export type NewGrant = { scope: GrantScope; scopeId: string; userId: string; role: Role };

/** The table of a scope's grants, with the column that names the thing granted. */
function grantTable(scope: GrantScope) {
  switch (scope) {
    case 'organization':
      return { table: organizationPermissions, scopeId: organizationPermissions.organizationId };
    case 'site':
      return { table: sitePermissions, scopeId: sitePermissions.siteId };
    case 'exhibit':
      return { table: exhibitPermissions, scopeId: exhibitPermissions.exhibitId };
  }
}

const userColumns = {
  userId: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  accountCreated: users.accountCreated,
};

/** The grants on one thing with their users, by email. */
export async function listPermissionRows(db: Db, ref: ScopeRef): Promise<PermissionRow[]> {
  const { table, scopeId } = grantTable(ref.scope);
  return db
    .select({ id: table.id, role: table.role, ...userColumns })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(eq(scopeId, ref.id))
    .orderBy(asc(users.email));
}

/** One grant with its user, as the lists show it. */
export async function findPermissionRow(db: Db, grant: GrantRef): Promise<PermissionRow | undefined> {
  const { table } = grantTable(grant.scope);
  const [row] = await db
    .select({ id: table.id, role: table.role, ...userColumns })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(eq(table.id, grant.grantId));
  return row;
}

/** Who holds a grant and on what, to check the caller may manage it. */
export async function findGrant(db: Db, grant: GrantRef): Promise<GrantRow | undefined> {
  const { table, scopeId } = grantTable(grant.scope);
  const [row] = await db.select({ id: table.id, userId: table.userId, scopeId }).from(table).where(eq(table.id, grant.grantId));
  return row;
}

/** Whether the user already holds a grant on the thing. */
export async function hasGrant(db: Db, ref: ScopeRef, userId: string): Promise<boolean> {
  const { table, scopeId } = grantTable(ref.scope);
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(scopeId, ref.id), eq(table.userId, userId)));
  return rows.length > 0;
}

/** Stores a grant; answers its id. One user holds one grant per thing (a second one is a unique violation). */
export async function insertGrant(db: Db, grant: NewGrant): Promise<string> {
  const { scope, scopeId, userId, role } = grant;
  switch (scope) {
    case 'organization': {
      const [row] = await db
        .insert(organizationPermissions)
        .values({ organizationId: scopeId, userId, role })
        .returning({ id: organizationPermissions.id });
      return row!.id;
    }
    case 'site': {
      const [row] = await db.insert(sitePermissions).values({ siteId: scopeId, userId, role }).returning({ id: sitePermissions.id });
      return row!.id;
    }
    case 'exhibit': {
      const [row] = await db.insert(exhibitPermissions).values({ exhibitId: scopeId, userId, role }).returning({ id: exhibitPermissions.id });
      return row!.id;
    }
  }
}

/** Changes the role a grant gives. */
export async function updateGrantRole(db: Db, grant: GrantRef, role: Role): Promise<void> {
  const { table } = grantTable(grant.scope);
  await db.update(table).set({ role }).where(eq(table.id, grant.grantId));
}

/** Removes a grant. */
export async function deleteGrant(db: Db, grant: GrantRef): Promise<void> {
  const { table } = grantTable(grant.scope);
  await db.delete(table).where(eq(table.id, grant.grantId));
}

/**
 * Runs `work` in a transaction holding a lock on the grants of one organization, site or exhibit
 * (PostgreSQL's, so every node waits for it): a check of its managers and the change it allows
 * happen as one step, and two demotions at once cannot both pass the last-manager check.
 */
export async function withScopeGrantsLocked<T>(db: Db, scope: { scope: string; id: string }, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`grants:${scope.scope}:${scope.id}`}))`);
    return work(tx);
  });
}

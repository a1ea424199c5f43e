import { can, DEFAULT_ROLE, type Permission, type Role } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { announceAccessChange } from '../../realtime/access-notices.js';
import { assertRight, type Grants } from '../access/grants.js';
import { findOrganizationRef, findSiteRef } from '../access/refs.repository.js';
import type { AuthUser } from '../auth/auth-user.js';
import { findUserByEmail } from '../auth/users.repository.js';
import { findOrInviteUser, isUniqueViolation } from '../auth/users.service.js';
import { presentPermission } from './permission.presenter.js';
import {
  deleteGrant,
  findGrant,
  findPermissionRow,
  hasGrant,
  insertGrant,
  listPermissionRows,
  updateGrantRole,
  type GrantRef,
  type ScopeRef,
} from './permission.repository.js';

/**
 * The things whose users and roles the permission calls manage. Exhibits hold grants too; letting
 * these calls manage them takes 'exhibit' here and its entry in SCOPES, nothing more.
 */
export type PermissionScope = 'organization' | 'site';

export type PermissionList = { permissions: Permission[]; canManage: boolean };

/** A grant to make: `role` (default viewer) for whoever has `email`, inviting them when they have no account. */
export type NewPermission = {
  on: ScopeRef<PermissionScope>;
  email: string;
  role?: Role;
  /** Who grants it: the invitation names them, and invitations are throttled per inviter. */
  inviter: AuthUser;
  /** The inviter's client address (invitations are throttled per address too). */
  ip: string;
};

/** What the caller sees of a scope's thing: its name as an invitation gives it, and the caller's role. */
type ScopeView = { invitationName: string; role: Role | null; isVisible: boolean };

const SCOPES: Record<PermissionScope, (db: Db, grants: Grants, id: string) => Promise<ScopeView | undefined>> = {
  organization: async (db, grants, id) => {
    const organization = await findOrganizationRef(db, id);
    if (!organization) return undefined;
    return { invitationName: organization.name, role: grants.organizationRole(id), isVisible: grants.isOrganizationVisible(id) };
  },
  site: async (db, grants, id) => {
    const site = await findSiteRef(db, id);
    if (!site) return undefined;
    return { invitationName: `${site.name} (${site.organizationName})`, role: grants.siteRole(site), isVisible: grants.isSiteVisible(site) };
  },
};

const OWN_ROLE_MESSAGE = 'You cannot change your own role.';

/**
 * The caller's effective role on an organization or site. One seen only through a grant below it
 * (an organization through a site or exhibit grant) answers 403; one the caller cannot see at all
 * answers 404, as does an unknown id.
 */
async function roleOn(deps: AppDeps, grants: Grants, ref: ScopeRef<PermissionScope>): Promise<{ invitationName: string; role: Role }> {
  const view = await SCOPES[ref.scope](deps.db, grants, ref.id);
  if (!view) throw new AppError('NotFound');
  if (!view.role && view.isVisible) throw new AppError('Forbidden');
  if (!view.role) throw new AppError('NotFound');
  return { invitationName: view.invitationName, role: view.role };
}

/** The users granted a role on the organization or site itself, and whether the caller may manage them. */
export async function listPermissions(deps: AppDeps, grants: Grants, ref: ScopeRef<PermissionScope>): Promise<PermissionList> {
  const { role } = await roleOn(deps, grants, ref);
  const rows = await listPermissionRows(deps.db, ref);
  return { permissions: rows.map(presentPermission), canManage: can(role, 'manageUsers') };
}

/**
 * Grants a role (default viewer) on an organization or site to the user with this email (managers
 * only). Someone without an account is invited: the user is created and mailed a create-account
 * link (throttled per inviter and client address).
 */
export async function createPermission(deps: AppDeps, grants: Grants, input: NewPermission): Promise<Permission> {
  const { invitationName, role } = await roleOn(deps, grants, input.on);
  assertRight(role, 'manageUsers');
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing && (await hasGrant(deps.db, input.on, existing.id))) throw new AppError('UserAlreadyAdded');
  const { user } = await findOrInviteUser(deps, { email: input.email, scopeName: invitationName, inviter: input.inviter, ip: input.ip });
  let grantId: string;
  try {
    grantId = await insertGrant(deps.db, { scope: input.on.scope, scopeId: input.on.id, userId: user.id, role: input.role ?? DEFAULT_ROLE });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('UserAlreadyAdded');
    throw error;
  }
  return presentPermission((await findPermissionRow(deps.db, { scope: input.on.scope, grantId }))!);
}

/** The grant when the caller may manage users where it is (404 when it is not theirs to see); nobody manages their own. */
async function manageableGrant(deps: AppDeps, grants: Grants, grant: GrantRef<PermissionScope>) {
  const row = await findGrant(deps.db, grant);
  if (!row) throw new AppError('NotFound');
  const { role } = await roleOn(deps, grants, { scope: grant.scope, id: row.scopeId });
  assertRight(role, 'manageUsers');
  if (row.userId === grants.userId) throw new AppError('ValidationError', OWN_ROLE_MESSAGE);
  return row;
}

/** Changes the role of a grant; the user's open sockets drop what the new role no longer allows. */
export async function updatePermission(
  deps: AppDeps,
  grants: Grants,
  change: GrantRef<PermissionScope> & { role: Role },
): Promise<Permission> {
  const grant: GrantRef<PermissionScope> = { scope: change.scope, grantId: change.grantId };
  const row = await manageableGrant(deps, grants, grant);
  await updateGrantRole(deps.db, grant, change.role);
  announceAccessChange(deps.hub, row.userId, 'grant');
  return presentPermission((await findPermissionRow(deps.db, grant))!);
}

/** Removes a grant; the user's open sockets drop what it allowed. */
export async function deletePermission(deps: AppDeps, grants: Grants, grant: GrantRef<PermissionScope>): Promise<void> {
  const row = await manageableGrant(deps, grants, grant);
  await deleteGrant(deps.db, grant);
  announceAccessChange(deps.hub, row.userId, 'grant');
}

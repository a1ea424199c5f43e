import { can, DEFAULT_ROLE, type Permission, type Role } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthUser } from '../../lib/request-user.js';
import { assertRight, type Grants, type SiteRef } from '../access/grants.js';
import { findSiteRef } from '../access/refs.repository.js';
import { findUserByEmail } from '../auth/users.repository.js';
import { findOrInviteUser, isUniqueViolation } from '../auth/users.service.js';
import { announceAccessChange } from '../../realtime/access-notices.js';
import { presentPermission } from './permission.presenter.js';
import {
  deleteOrganizationGrant,
  deleteSiteGrant,
  findOrganization,
  findOrganizationGrant,
  findOrganizationPermissionRow,
  findSiteGrant,
  findSitePermissionRow,
  hasOrganizationGrant,
  hasSiteGrant,
  insertOrganizationGrant,
  insertSiteGrant,
  listOrganizationPermissionRows,
  listSitePermissionRows,
  updateOrganizationGrantRole,
  updateSiteGrantRole,
} from './permission.repository.js';

export type PermissionList = { permissions: Permission[]; canManage: boolean };

const OWN_ROLE_MESSAGE = 'You cannot change your own role.';

/**
 * The caller's role on an organization. An organization seen only through a site or exhibit
 * grant answers 403; one the caller cannot see at all answers 404, as does an unknown id.
 */
async function organizationRoleOf(deps: AppDeps, grants: Grants, organizationId: string) {
  const organization = await findOrganization(deps.db, organizationId);
  if (!organization) throw new AppError('NotFound');
  const role = grants.organizationRole(organizationId);
  if (!role && grants.isOrganizationVisible(organizationId)) throw new AppError('Forbidden');
  if (!role) throw new AppError('NotFound');
  return { organization, role };
}

/** The caller's effective role on a site; 403 when the site is seen only through an exhibit grant, else 404 without a role. */
async function siteRoleOf(deps: AppDeps, grants: Grants, siteId: string) {
  const site = await findSiteRef(deps.db, siteId);
  if (!site) throw new AppError('NotFound');
  const ref: SiteRef = { id: site.id, organizationId: site.organizationId };
  const role = grants.siteRole(ref);
  if (!role && grants.isSiteVisible(ref)) throw new AppError('Forbidden');
  if (!role) throw new AppError('NotFound');
  return { site, role };
}

/** The users granted a role on an organization, and whether the caller may manage them. */
export async function listOrganizationPermissions(deps: AppDeps, grants: Grants, organizationId: string): Promise<PermissionList> {
  const { role } = await organizationRoleOf(deps, grants, organizationId);
  const rows = await listOrganizationPermissionRows(deps.db, organizationId);
  return { permissions: rows.map(presentPermission), canManage: can(role, 'manageUsers') };
}

/**
 * Grants a role on an organization to the user with this email. Someone without an account is
 * invited: the user is created and mailed a create-account link (throttled; `ip` is the inviter's
 * client address).
 */
export async function addOrganizationPermission(
  deps: AppDeps,
  grants: Grants,
  inviter: AuthUser,
  input: { organizationId: string; email: string; role?: Role },
  ip: string,
): Promise<Permission> {
  const { organization, role } = await organizationRoleOf(deps, grants, input.organizationId);
  assertRight(role, 'manageUsers');
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing && (await hasOrganizationGrant(deps.db, organization.id, existing.id))) throw new AppError('UserAlreadyAdded');
  const { user } = await findOrInviteUser(deps, input.email, organization.name, inviter, ip);
  let id: string;
  try {
    id = await insertOrganizationGrant(deps.db, organization.id, user.id, input.role ?? DEFAULT_ROLE);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('UserAlreadyAdded');
    throw error;
  }
  return presentPermission((await findOrganizationPermissionRow(deps.db, id))!);
}

/** The grant `id` when the caller may manage users of its organization (404 when it is not theirs to see). */
async function manageableOrganizationGrant(deps: AppDeps, grants: Grants, id: string) {
  const grant = await findOrganizationGrant(deps.db, id);
  if (!grant) throw new AppError('NotFound');
  const { role } = await organizationRoleOf(deps, grants, grant.organizationId);
  assertRight(role, 'manageUsers');
  if (grant.userId === grants.userId) throw new AppError('ValidationError', OWN_ROLE_MESSAGE);
  return grant;
}

/** Changes the role of an organization grant; nobody changes their own. */
export async function updateOrganizationPermission(deps: AppDeps, grants: Grants, id: string, role: Role): Promise<Permission> {
  const grant = await manageableOrganizationGrant(deps, grants, id);
  await updateOrganizationGrantRole(deps.db, id, role);
  announceAccessChange(deps.hub, grant.userId, 'grant');
  return presentPermission((await findOrganizationPermissionRow(deps.db, id))!);
}

/** Removes an organization grant; nobody removes their own. */
export async function deleteOrganizationPermission(deps: AppDeps, grants: Grants, id: string): Promise<void> {
  const grant = await manageableOrganizationGrant(deps, grants, id);
  await deleteOrganizationGrant(deps.db, id);
  announceAccessChange(deps.hub, grant.userId, 'grant');
}

/** The users granted a role on the site itself, and whether the caller may manage them. */
export async function listSitePermissions(deps: AppDeps, grants: Grants, siteId: string): Promise<PermissionList> {
  const { role } = await siteRoleOf(deps, grants, siteId);
  const rows = await listSitePermissionRows(deps.db, siteId);
  return { permissions: rows.map(presentPermission), canManage: can(role, 'manageUsers') };
}

/** Grants a role on a site (default viewer), inviting someone without an account (throttled, as for organizations). */
export async function addSitePermission(
  deps: AppDeps,
  grants: Grants,
  inviter: AuthUser,
  input: { siteId: string; email: string; role?: Role },
  ip: string,
): Promise<Permission> {
  const { site, role } = await siteRoleOf(deps, grants, input.siteId);
  assertRight(role, 'manageUsers');
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing && (await hasSiteGrant(deps.db, site.id, existing.id))) throw new AppError('UserAlreadyAdded');
  const { user } = await findOrInviteUser(deps, input.email, `${site.name} (${site.organizationName})`, inviter, ip);
  let id: string;
  try {
    id = await insertSiteGrant(deps.db, site.id, user.id, input.role ?? DEFAULT_ROLE);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('UserAlreadyAdded');
    throw error;
  }
  return presentPermission((await findSitePermissionRow(deps.db, id))!);
}

async function manageableSiteGrant(deps: AppDeps, grants: Grants, id: string) {
  const grant = await findSiteGrant(deps.db, id);
  if (!grant) throw new AppError('NotFound');
  const { role } = await siteRoleOf(deps, grants, grant.siteId);
  assertRight(role, 'manageUsers');
  if (grant.userId === grants.userId) throw new AppError('ValidationError', OWN_ROLE_MESSAGE);
  return grant;
}

/** Changes the role of a site grant; nobody changes their own. */
export async function updateSitePermission(deps: AppDeps, grants: Grants, id: string, role: Role): Promise<Permission> {
  const grant = await manageableSiteGrant(deps, grants, id);
  await updateSiteGrantRole(deps.db, id, role);
  announceAccessChange(deps.hub, grant.userId, 'grant');
  return presentPermission((await findSitePermissionRow(deps.db, id))!);
}

/** Removes a site grant; nobody removes their own. */
export async function deleteSitePermission(deps: AppDeps, grants: Grants, id: string): Promise<void> {
  const grant = await manageableSiteGrant(deps, grants, id);
  await deleteSiteGrant(deps.db, id);
  announceAccessChange(deps.hub, grant.userId, 'grant');
}

import { can, DEFAULT_ROLE, EXHIBIT_USER_MESSAGES, hasRole, type Permission, type Role } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { announceAccessChange } from '../../realtime/access-notices.js';
import { assertRight, loadGrants, type Grants } from '../access/grants.js';
import { deleteItemLevels } from '../access/item-levels.repository.js';
import { findExhibitNamedRef, findOrganizationRef, findSiteRef } from '../access/refs.repository.js';
import type { AuthUser } from '../auth/auth-user.js';
import { findUserByEmail, findUserById } from '../auth/users.repository.js';
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
  withScopeGrantsLocked,
  type GrantRef,
  type PermissionRow,
  type ScopeRef,
} from './permission.repository.js';

/** The things whose users and roles the permission calls manage: organizations, sites and exhibits. */
export type PermissionScope = 'organization' | 'site' | 'exhibit';

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
  /** Who makes the change, for the audit log. */
  audit: AuditContext;
};

/** What the caller sees of a scope's thing: its name as an invitation gives it, and the caller's role. */
type ScopeView = {
  invitationName: string;
  role: Role | null;
  isVisible: boolean;
  organizationId: string;
  /** Where the audit log files a change of its users: its site, and for an exhibit the exhibit. */
  auditPlace: { siteId: string | null; exhibitId: string | null };
  /** A user's role on the thing apart from a grant on the thing itself (through its site or organization). */
  inheritedRole: (userGrants: Grants) => Role | null;
};

/** How the calls behave on one scope, beyond the rules they share. */
type ScopeRules = {
  view: (db: Db, grants: Grants, id: string) => Promise<ScopeView | undefined>;
  /**
   * Whether the caller, a manager here, may add someone without an account (who is then invited).
   * Otherwise they add only people who have one (403 ManagersCanOnlyAddExistingUsers).
   */
  mayInvite: (grants: Grants, view: ScopeView) => boolean;
  /**
   * The last manager holding the thing only through its grant here cannot be removed or demoted:
   * the thing would be left to managers of the levels above it.
   */
  keepsLastManager: boolean;
  /** The `response` of the answer to adding someone twice: the code the console maps, or the text. */
  alreadyAdded?: string;
  /** After any change of its users: tells consoles showing it, forgets what a removed user had there. */
  afterChange?: (deps: AppDeps, change: { id: string; removedUserId?: string }) => Promise<void>;
};

const SCOPES: Record<PermissionScope, ScopeRules> = {
  organization: {
    view: async (db, grants, id) => {
      const organization = await findOrganizationRef(db, id);
      if (!organization) return undefined;
      return {
        invitationName: organization.name,
        role: grants.organizationRole(id),
        isVisible: grants.isOrganizationVisible(id),
        organizationId: id,
        auditPlace: { siteId: null, exhibitId: null },
        inheritedRole: () => null,
      };
    },
    mayInvite: () => true,
    keepsLastManager: false,
  },
  site: {
    view: async (db, grants, id) => {
      const site = await findSiteRef(db, id);
      if (!site) return undefined;
      return {
        invitationName: `${site.name} (${site.organizationName})`,
        role: grants.siteRole(site),
        isVisible: grants.isSiteVisible(site),
        organizationId: site.organizationId,
        auditPlace: { siteId: site.id, exhibitId: null },
        inheritedRole: (user) => user.organizationRole(site.organizationId),
      };
    },
    mayInvite: () => true,
    keepsLastManager: false,
  },
  exhibit: {
    view: async (db, grants, id) => {
      const exhibit = await findExhibitNamedRef(db, id);
      if (!exhibit) return undefined;
      const role = grants.exhibitRole(exhibit);
      return {
        invitationName: `${exhibit.name} (${exhibit.siteName}, ${exhibit.organizationName})`,
        role,
        isVisible: role !== null,
        organizationId: exhibit.organizationId,
        auditPlace: { siteId: exhibit.siteId, exhibitId: exhibit.id },
        inheritedRole: (user) => user.siteRole({ id: exhibit.siteId, organizationId: exhibit.organizationId }),
      };
    },
    // Spec 2.10: managers add only people who have an account; admins and organization managers invite.
    mayInvite: (grants, view) => hasRole(grants.organizationRole(view.organizationId), 'MANAGER'),
    keepsLastManager: true,
    alreadyAdded: EXHIBIT_USER_MESSAGES.alreadyAdded,
    afterChange: async (deps, change) => {
      if (change.removedUserId) await deleteItemLevels(deps.db, { exhibitId: change.id, userId: change.removedUserId });
      deps.hub.publish('exhibit', change.id, { type: 'exhibit.usersChanged', exhibitId: change.id });
    },
  },
};

const OWN_ROLE_MESSAGE = 'You cannot change your own role.';

/** The audit entry of a grant made, changed or removed: the user (by id and email) and the role, before and after. */
async function recordGrantChange(
  deps: AppDeps,
  audit: AuditContext,
  change: { scope: PermissionScope; view: ScopeView; grantId: string; action: 'create' | 'update' | 'delete'; before?: unknown; after?: unknown },
): Promise<void> {
  const { view } = change;
  await deps.audit.record(audit, {
    organizationId: view.organizationId,
    ...view.auditPlace,
    resource: `${change.scope}Permission`,
    resourceId: change.grantId,
    action: change.action,
    before: change.before,
    after: change.after,
  });
}

/**
 * The caller's view of an organization, site or exhibit, with their effective role there. One
 * seen only through a grant below it (an organization through a site or exhibit grant) answers
 * 403; one the caller cannot see at all answers 404, as does an unknown id.
 */
async function viewOn(deps: AppDeps, grants: Grants, ref: ScopeRef<PermissionScope>): Promise<ScopeView & { role: Role }> {
  const view = await SCOPES[ref.scope].view(deps.db, grants, ref.id);
  if (!view) throw new AppError('NotFound');
  if (!view.role && view.isVisible) throw new AppError('Forbidden');
  if (!view.role) throw new AppError('NotFound');
  return { ...view, role: view.role };
}

/** The users granted a role on the thing itself (rows), and whether the caller may manage them. */
export async function listGrantRows(deps: AppDeps, grants: Grants, ref: ScopeRef<PermissionScope>): Promise<{ rows: PermissionRow[]; canManage: boolean }> {
  const { role } = await viewOn(deps, grants, ref);
  return { rows: await listPermissionRows(deps.db, ref), canManage: can(role, 'manageUsers') };
}

/** The users granted a role on the organization or site itself, and whether the caller may manage them. */
export async function listPermissions(deps: AppDeps, grants: Grants, ref: ScopeRef<PermissionScope>): Promise<PermissionList> {
  const { rows, canManage } = await listGrantRows(deps, grants, ref);
  return { permissions: rows.map(presentPermission), canManage };
}

/**
 * Grants a role (default viewer) on the thing to the user with this email (managers only).
 * Someone without an account is invited where the scope lets the caller invite: the user is
 * created and mailed a create-account link (throttled per inviter and client address).
 */
export async function addGrant(deps: AppDeps, grants: Grants, input: NewPermission): Promise<PermissionRow> {
  const rules = SCOPES[input.on.scope];
  const view = await viewOn(deps, grants, input.on);
  assertRight(view.role, 'manageUsers');
  const alreadyAdded = () => new AppError('UserAlreadyAdded', rules.alreadyAdded);
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing && (await hasGrant(deps.db, input.on, existing.id))) throw alreadyAdded();
  if (!existing?.accountCreated && !rules.mayInvite(grants, view)) {
    throw new AppError('ManagersCanOnlyAddExistingUsers', EXHIBIT_USER_MESSAGES.managersOnlyExisting);
  }
  const { user } = await findOrInviteUser(deps, { email: input.email, scopeName: view.invitationName, inviter: input.inviter, ip: input.ip });
  let grantId: string;
  try {
    grantId = await insertGrant(deps.db, { scope: input.on.scope, scopeId: input.on.id, userId: user.id, role: input.role ?? DEFAULT_ROLE });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyAdded();
    throw error;
  }
  announceAccessChange(deps.hub, user.id, 'grant');
  await rules.afterChange?.(deps, { id: input.on.id });
  const row = (await findPermissionRow(deps.db, { scope: input.on.scope, grantId }))!;
  const after = { userId: row.userId, email: row.email, role: row.role };
  await recordGrantChange(deps, input.audit, { scope: input.on.scope, view, grantId, action: 'create', after });
  return row;
}

/** createPermission for the organization and site calls, presented as they show it. */
export async function createPermission(deps: AppDeps, grants: Grants, input: NewPermission): Promise<Permission> {
  return presentPermission(await addGrant(deps, grants, input));
}

/** The grant when the caller may manage users where it is (404 when it is not theirs to see); nobody manages their own. */
async function manageableGrant(deps: AppDeps, grants: Grants, grant: GrantRef<PermissionScope>) {
  const row = await findGrant(deps.db, grant);
  if (!row) throw new AppError('NotFound');
  const view = await viewOn(deps, grants, { scope: grant.scope, id: row.scopeId });
  assertRight(view.role, 'manageUsers');
  if (row.userId === grants.userId) throw new AppError('ValidationError', OWN_ROLE_MESSAGE);
  return { ...row, view };
}

/**
 * Refuses taking the manager role from the last user who manages the thing only through its
 * grant there (scopes that keep their last manager; see ScopeRules).
 */
async function assertNotLastManager(deps: AppDeps, grant: GrantRef<PermissionScope> & { view: ScopeView; userId: string; scopeId: string }): Promise<void> {
  if (!SCOPES[grant.scope].keepsLastManager) return;
  const rows = await listPermissionRows(deps.db, { scope: grant.scope, id: grant.scopeId });
  const target = rows.find((row) => row.id === grant.grantId);
  if (target?.role !== 'MANAGER') return;
  if (rows.some((row) => row.id !== grant.grantId && row.role === 'MANAGER')) return;
  const user = await findUserById(deps.db, grant.userId);
  const inherited = user ? grant.view.inheritedRole(await loadGrants(deps.db, user)) : null;
  if (hasRole(inherited, 'MANAGER')) return;
  throw new AppError('ValidationError', EXHIBIT_USER_MESSAGES.lastManager);
}

/** Changes the role of a grant; the user's open sockets drop what the new role no longer allows. */
export async function changeGrant(
  deps: AppDeps,
  grants: Grants,
  change: GrantRef<PermissionScope> & { role: Role; audit: AuditContext },
): Promise<PermissionRow> {
  const grant: GrantRef<PermissionScope> = { scope: change.scope, grantId: change.grantId };
  const row = await manageableGrant(deps, grants, grant);
  const previous = await findPermissionRow(deps.db, grant);
  await withScopeGrantsLocked(deps.db, { scope: grant.scope, id: row.scopeId }, async (tx) => {
    if (change.role !== 'MANAGER') await assertNotLastManager({ ...deps, db: tx }, { ...grant, ...row });
    await updateGrantRole(tx, grant, change.role);
  });
  announceAccessChange(deps.hub, row.userId, 'grant');
  await SCOPES[grant.scope].afterChange?.(deps, { id: row.scopeId });
  const saved = (await findPermissionRow(deps.db, grant))!;
  const before = previous && { userId: previous.userId, email: previous.email, role: previous.role };
  const after = { userId: saved.userId, email: saved.email, role: saved.role };
  await recordGrantChange(deps, change.audit, { scope: grant.scope, view: row.view, grantId: grant.grantId, action: 'update', before, after });
  return saved;
}

/** updatePermission for the organization and site calls, presented as they show it. */
export async function updatePermission(
  deps: AppDeps,
  grants: Grants,
  change: GrantRef<PermissionScope> & { role: Role; audit: AuditContext },
): Promise<Permission> {
  return presentPermission(await changeGrant(deps, grants, change));
}

/** Removes a grant; the user's open sockets drop what it allowed. */
export async function deletePermission(deps: AppDeps, grants: Grants, remove: GrantRef<PermissionScope> & { audit: AuditContext }): Promise<void> {
  const grant: GrantRef<PermissionScope> = { scope: remove.scope, grantId: remove.grantId };
  const row = await manageableGrant(deps, grants, grant);
  const previous = await findPermissionRow(deps.db, grant);
  await withScopeGrantsLocked(deps.db, { scope: grant.scope, id: row.scopeId }, async (tx) => {
    await assertNotLastManager({ ...deps, db: tx }, { ...grant, ...row });
    await deleteGrant(tx, grant);
  });
  announceAccessChange(deps.hub, row.userId, 'grant');
  await SCOPES[grant.scope].afterChange?.(deps, { id: row.scopeId, removedUserId: row.userId });
  const before = previous && { userId: previous.userId, email: previous.email, role: previous.role };
  await recordGrantChange(deps, remove.audit, { scope: grant.scope, view: row.view, grantId: grant.grantId, action: 'delete', before });
}

import type { z } from 'zod';
import {
  can,
  roleLevelCap,
  type GranularKind,
  type GranularLevel,
  type GranularPermissions,
  type Role,
  type UpdateGranularBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordExhibitChange } from '../audit/audit-record.js';
import { AppError } from '../../lib/app-error.js';
import { announceAccessChange } from '../../realtime/access-notices.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import { assertRight, loadGrants, type Grants } from '../access/grants.js';
import { loadItemAccess } from '../access/item-access.js';
import { saveItemLevels } from '../access/item-levels.repository.js';
import { findExhibitRefs } from '../access/refs.repository.js';
import { findUserById } from '../auth/users.repository.js';
import { loadRuntimeRows } from '../exhibit-runtime/exhibit-runtime.repository.js';
import { listLevelItems, presentGranular, type LevelItem } from './granular.presenter.js';

/**
 * Per-user levels on an exhibit's manifest items (spec 2.10, 6): read by the exhibit's managers
 * (anyone's) and by each user (their own), set by managers. A level narrows what the user's role
 * allows and never widens it; a level equal to the role's cap is stored as no level (the default).
 */

type UpdateInput = z.output<typeof UpdateGranularBody>;

/** Whose levels on which exhibit. */
export type GranularTarget = { exhibitId: string; userId: string };

/** The user whose levels these are, with their role on the exhibit (404 when they have none). */
async function findTarget(deps: AppDeps, target: GranularTarget): Promise<{ id: string; email: string; role: Role }> {
  const user = await findUserById(deps.db, target.userId);
  const [ref] = await findExhibitRefs(deps.db, [target.exhibitId]);
  const role = user && ref ? (await loadGrants(deps.db, user)).exhibitRole(ref) : null;
  if (!user || !role) throw new AppError('NotFound', 'The user has no role on this exhibit.');
  return { id: user.id, email: user.email, role };
}

/** The levels of one user as the caller may see them (the caller's role on the exhibit decides what). */
async function readLevels(deps: AppDeps, target: GranularTarget, callerRole: Role): Promise<GranularPermissions> {
  const user = await findTarget(deps, target);
  const [access, rows] = await Promise.all([
    loadItemAccess(deps.db, { exhibitId: target.exhibitId, userId: user.id, role: user.role }),
    loadRuntimeRows(deps.db, target.exhibitId),
  ]);
  return presentGranular(rows, { exhibitId: target.exhibitId, user, role: user.role, access, leaveOutHidden: !can(callerRole, 'manageUsers') });
}

/**
 * GET .../permission/granular: a user's level on every status, setting, setting list and control
 * of the exhibit. Managers read anyone's; others only their own (without the items hidden to them).
 */
export async function getGranular(deps: AppDeps, grants: Grants, target: GranularTarget): Promise<GranularPermissions> {
  const callerRole = await authorizeExhibit(deps.db, grants, { exhibitId: target.exhibitId, right: 'view' });
  if (target.userId !== grants.userId) assertRight(callerRole, 'manageUsers');
  return readLevels(deps, target, callerRole);
}

const LISTS: [keyof Omit<UpdateInput, 'exhibitId' | 'userId'>, GranularKind][] = [
  ['statuspermissions', 'status'],
  ['settingpermissions', 'setting'],
  ['settinglistpermissions', 'settingList'],
  ['controlpermissions', 'control'],
];

const RANK: Record<GranularLevel, number> = { hidden: 0, read: 1, read_write: 2 };

/**
 * The levels to store, each checked: the item must exist in the manifest (400 naming it) and the
 * level must not exceed what the user's role allows there (400 naming it). A level equal to the
 * cap becomes null: no stored level, so the item follows the role if it changes later.
 */
function checkChanges(input: UpdateInput, items: LevelItem[], role: Role) {
  return LISTS.flatMap(([field, kind]) =>
    input[field].map((change, i) => {
      const item = items.find((it) => it.kind === kind && it.manifestId === change.id);
      if (!item) throw new AppError('ValidationError', `${field}[${i}]: the exhibit has no ${kind} "${change.id}"`);
      const cap = roleLevelCap(role, kind);
      if (RANK[change.level] > RANK[cap]) {
        throw new AppError('ValidationError', `${field}[${i}]: "${item.display}" (${item.manifestId}) allows at most ${cap} for a ${role}; levels never widen a role`);
      }
      return { kind, manifestId: item.manifestId, level: change.level === cap ? null : change.level };
    }),
  );
}

/**
 * PUT .../permission/granular (managers): stores the levels given, all together or none; items
 * left out keep theirs. The user's open sockets and the consoles showing the exhibit learn it.
 */
export async function updateGranular(deps: AppDeps, grants: Grants, input: UpdateInput & { audit: AuditContext }): Promise<GranularPermissions> {
  const target = { exhibitId: input.exhibitId, userId: input.userId };
  const callerRole = await authorizeExhibit(deps.db, grants, { exhibitId: target.exhibitId, right: 'manageUsers' });
  const user = await findTarget(deps, target);
  const levels = checkChanges(input, listLevelItems(await loadRuntimeRows(deps.db, target.exhibitId)), user.role);
  await saveItemLevels(deps.db, target, levels);
  const after = { userId: user.id, levels: levels.map((l) => ({ kind: l.kind, item: l.manifestId, level: l.level })) };
  await recordExhibitChange(deps, input.audit, { exhibitId: target.exhibitId, resource: 'itemPermissions', resourceId: user.id, action: 'update', after });
  announceAccessChange(deps.hub, user.id, 'grant');
  deps.hub.publish('exhibit', target.exhibitId, { type: 'exhibit.usersChanged', exhibitId: target.exhibitId });
  return readLevels(deps, target, callerRole);
}

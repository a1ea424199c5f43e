import { z } from 'zod';
import { hasRole, type Role } from '../roles.js';
import { Email, Id, RoleInput, UpperRoleSchema } from './common.js';

/**
 * People on an exhibit (spec 2.10, 2.11, 3 Exhibit user and Notification subscription, 6, 7.1
 * permission and notification calls): the exhibit's users, their per-item (granular) levels, and
 * their mail notification toggles.
 */

/** The spec's add-user texts (8). */
export const EXHIBIT_USER_MESSAGES = {
  managersOnlyExisting: 'Managers can only add users who already have a Plinth account. Ask an admin to add this user.',
  alreadyAdded: 'Please check that the user has not already been added.',
  lastManager: 'This is the last manager of this exhibit: add another manager before removing or demoting this one.',
  noUsers: 'There are no users in this exhibit.',
} as const;

// ---------------------------------------------------------------------------------------------
// Exhibit users

/** One user granted a role on the exhibit itself (the grant's id is `id`). */
export const ExhibitMemberSchema = z.object({
  id: Id,
  userId: Id,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: UpperRoleSchema,
  /** False while an invited user has not created an account yet. */
  accountCreated: z.boolean(),
});
export type ExhibitMember = z.infer<typeof ExhibitMemberSchema>;

/** GET /exhibit-management/permission/by-exhibit-id/{id} */
export const ExhibitUsersResponse = z.object({
  exhibitUsers: z.array(ExhibitMemberSchema),
  /** The caller may add, change and remove users here (MANAGER). */
  canManage: z.boolean(),
});
export type ExhibitUsers = z.infer<typeof ExhibitUsersResponse>;

/** POST /exhibit-management/permission */
export const CreateExhibitPermissionBody = z.object({
  exhibitId: Id,
  email: Email,
  /** The console sends true when it adds the creator right after creating the exhibit (spec 7.1). */
  exhibitCreated: z.boolean().optional(),
  role: RoleInput.optional(),
});
/** PUT /exhibit-management/permission/{id} */
export const UpdateExhibitPermissionBody = z.object({ role: RoleInput });

// ---------------------------------------------------------------------------------------------
// Granular levels

export const GRANULAR_LEVELS = ['hidden', 'read', 'read_write'] as const;
export type GranularLevel = (typeof GRANULAR_LEVELS)[number];
export const GranularLevelSchema = z.enum(GRANULAR_LEVELS);

/** The kinds of manifest items a level applies to, as the spec's lists name them. */
export const GRANULAR_KINDS = ['status', 'setting', 'settingList', 'control'] as const;
export type GranularKind = (typeof GRANULAR_KINDS)[number];

const LEVEL_RANK: Record<GranularLevel, number> = { hidden: 0, read: 1, read_write: 2 };

/**
 * The highest level a role allows on a kind of item: statuses are only ever read; settings and
 * setting lists are written by developers and up; controls are fired by every role (VIEWER fires
 * controls, design.md §3). Levels narrow this, never widen it.
 */
export function roleLevelCap(role: Role | null, kind: GranularKind): GranularLevel {
  if (!role) return 'hidden';
  if (kind === 'status') return 'read';
  if (kind === 'control') return 'read_write';
  return hasRole(role, 'DEVELOPER') ? 'read_write' : 'read';
}

/** The level that applies: the stored one (default: what the role allows), never above the role's cap. */
export function effectiveLevel(role: Role | null, kind: GranularKind, stored: GranularLevel | undefined): GranularLevel {
  const cap = roleLevelCap(role, kind);
  if (!stored) return cap;
  return LEVEL_RANK[stored] <= LEVEL_RANK[cap] ? stored : cap;
}

export const levelAllowsRead = (level: GranularLevel) => level !== 'hidden';
export const levelAllowsWrite = (level: GranularLevel) => level === 'read_write';

/** One item's level as the spec shows it (read and write flags), with its manifest id and display name. */
export const ItemPermissionSchema = z.object({
  /** The item's manifest id. */
  id: z.string(),
  display: z.string(),
  level: GranularLevelSchema,
  read: z.boolean(),
  write: z.boolean(),
  /** The highest level the user's role allows here (the console offers nothing above it). */
  maxLevel: GranularLevelSchema,
});
export type ItemPermission = z.infer<typeof ItemPermissionSchema>;

/** GET /exhibit-management/permission/granular?exhibitId&userId */
export const GranularQuery = z.object({ exhibitId: Id, userId: Id });
export const GranularPermissionsResponse = z.object({
  exhibitUser: z.object({
    exhibitId: Id,
    userId: Id,
    email: z.string(),
    role: UpperRoleSchema.nullable(),
    statuspermissions: z.array(ItemPermissionSchema),
    settingpermissions: z.array(ItemPermissionSchema),
    settinglistpermissions: z.array(ItemPermissionSchema),
    controlpermissions: z.array(ItemPermissionSchema),
  }),
});
export type GranularPermissions = z.infer<typeof GranularPermissionsResponse>['exhibitUser'];

const LevelChanges = z
  .array(z.object({ id: z.string().min(1).max(200), level: GranularLevelSchema }))
  .max(2000)
  .default([]);
/** PUT /exhibit-management/permission/granular: the levels to store, all saved together (items left out keep theirs). */
export const UpdateGranularBody = z.object({
  exhibitId: Id,
  userId: Id,
  statuspermissions: LevelChanges,
  settingpermissions: LevelChanges,
  settinglistpermissions: LevelChanges,
  controlpermissions: LevelChanges,
});
export type UpdateGranular = z.input<typeof UpdateGranularBody>;

// ---------------------------------------------------------------------------------------------
// Notifications

/** The seven toggles of spec 2.11; `notify` is the master switch. */
export const NOTIFICATION_TOGGLES = [
  'notify',
  'notify_hardware_change',
  'notify_hardware_notification',
  'notify_scene_changes',
  'notify_on_delete',
  'notify_connected',
  'notify_op_mode',
] as const;
export type NotificationToggle = (typeof NOTIFICATION_TOGGLES)[number];

/** What each toggle sends, for the console's labels and the mails. */
export const NOTIFICATION_TOGGLE_LABELS: Record<NotificationToggle, string> = {
  notify: 'Email notifications for this exhibit',
  notify_connected: 'The exhibit goes offline or comes back online',
  notify_op_mode: 'The operating mode changes',
  notify_hardware_change: 'Hardware is connected or disconnected, or a board goes offline',
  notify_hardware_notification: 'A board of the exhibit logs an error',
  notify_scene_changes: 'A scheduled event runs or fails',
  notify_on_delete: 'The exhibit is deleted',
};

/** A new subscription: the master switch and deletion on, the rest off until the user opts in (docs/decisions.md). */
export const DEFAULT_NOTIFICATION_TOGGLES: Record<NotificationToggle, boolean> = {
  notify: true,
  notify_hardware_change: false,
  notify_hardware_notification: false,
  notify_scene_changes: false,
  notify_on_delete: true,
  notify_connected: false,
  notify_op_mode: false,
};

/** One exhibit user's toggles (spec 3 Notification subscription). */
export const NotificationSubscriptionSchema = z.object({
  /** The exhibit user's grant id. */
  id: Id,
  userId: Id,
  email: z.string(),
  notify: z.boolean(),
  notify_hardware_change: z.boolean(),
  notify_hardware_notification: z.boolean(),
  notify_scene_changes: z.boolean(),
  notify_on_delete: z.boolean(),
  notify_connected: z.boolean(),
  notify_op_mode: z.boolean(),
  /** The caller may change these (their own, or anyone's for a MANAGER). */
  canEdit: z.boolean(),
});
export type NotificationSubscription = z.infer<typeof NotificationSubscriptionSchema>;

/** GET /exhibit-management/notifications/?exhibitId */
export const NotificationsQuery = z.object({ exhibitId: Id });
export const ExhibitNotificationsResponse = z.object({ exhibitNotifications: z.array(NotificationSubscriptionSchema) });

/**
 * PUT /exhibit-management/notifications/{exhibitId}: `{field: boolean}` for one or more toggles;
 * `userId` names another exhibit user (a MANAGER's change), else the caller's own.
 */
export const UpdateNotificationsBody = z
  .object({
    userId: Id.optional(),
    notify: z.boolean().optional(),
    notify_hardware_change: z.boolean().optional(),
    notify_hardware_notification: z.boolean().optional(),
    notify_scene_changes: z.boolean().optional(),
    notify_on_delete: z.boolean().optional(),
    notify_connected: z.boolean().optional(),
    notify_op_mode: z.boolean().optional(),
  })
  .refine((body) => NOTIFICATION_TOGGLES.some((t) => body[t] !== undefined), { message: 'name at least one toggle (notify, notify_connected, ...)' });

/** GET /exhibit-management/notifications/unsubscribe?token: the one-click link of every mail. */
export const UnsubscribeQuery = z.object({ token: z.string().min(10).max(2000) });

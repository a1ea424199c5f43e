import { z } from 'zod';
import { OP_MODES } from '../constants.js';
import { Id, Name, UpperRoleSchema } from './common.js';
import { TokenSchema } from './auth.js';
import { OpModeSchema } from '../values.js';
import { CONTROL_TYPES, ENABLED_OP_MODES, SETTING_TYPES, STATUS_TYPES } from './manifest.js';
import { SettingValueSchema } from './setting-value.js';

/*
 * The console's REST shapes of a live exhibit (spec 7.1): what GET
 * /exhibit-management/exhibit/{id}/manifest answers, and the bodies, params and answers of the
 * runtime calls (tokens, controls, settings, setting lists, op mode, follower sync, the caller's role).
 * What an exhibit itself sends is in manifest.ts.
 */

// ---------------------------------------------------------------------------------------------
// What GET /exhibit-management/exhibit/{id}/manifest answers (the console's view of it).

const Versioned = {
  /** Increases each time the value is saved. */
  version: z.number().int(),
  /** The last version the exhibit acknowledged having applied. */
  appliedVersion: z.number().int(),
  /** True when the exhibit has applied the saved value; false while it is pending. */
  applied: z.boolean(),
};

export const StatusSchema = z.object({
  id: z.string(),
  manifestId: z.string(),
  type: z.enum(STATUS_TYPES),
  display: z.string(),
  default: z.union([z.string(), z.number(), z.null()]),
  value: z.union([z.string(), z.number(), z.null()]),
  order: z.number(),
  updatedAt: z.string().nullable(),
});
export type Status = z.infer<typeof StatusSchema>;

export const ControlItemSchema = z.object({ id: z.string(), display: z.string(), order: z.number(), uniqueId: z.string() });
export const ControlSchema = z.object({
  id: z.string(),
  manifestId: z.string(),
  type: z.enum(CONTROL_TYPES),
  display: z.string(),
  /** The caller may fire it. */
  write: z.boolean(),
  enabledOpMode: z.enum(ENABLED_OP_MODES),
  order: z.number(),
  items: z.array(ControlItemSchema),
});
export type Control = z.infer<typeof ControlSchema>;

export const ExhibitSettingSchema = z.object({
  /** Record id. */
  id: z.string(),
  manifestId: z.string(),
  display: z.string(),
  type: z.enum(SETTING_TYPES),
  default: SettingValueSchema,
  value: SettingValueSchema,
  /** Options of Dropdown and SingleButtonGroup settings. */
  items: z.array(z.object({ id: z.string(), display: z.string(), order: z.number() })),
  enabledOpMode: z.enum(ENABLED_OP_MODES),
  /** The caller may change it. */
  write: z.boolean(),
  order: z.number(),
  /** Set on the settings of a setting-list item. */
  listName: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  contentType: z.string().nullable(),
  displayFieldName: z.string().nullable(),
  ...Versioned,
});
export type ExhibitSetting = z.infer<typeof ExhibitSettingSchema>;

export const SettingListItemSchema = z.object({
  listName: z.string(),
  order: z.number(),
  /** The item's settings with their values. */
  items: z.array(ExhibitSettingSchema),
  ...Versioned,
});
export type SettingListItem = z.infer<typeof SettingListItemSchema>;

export const SettingListSchema = z.object({
  id: z.string(),
  manifestId: z.string(),
  type: z.literal('SettingsList'),
  listDisplay: z.string(),
  listItemCount: z.number(),
  enabledOpMode: z.enum(ENABLED_OP_MODES),
  write: z.boolean(),
  order: z.number(),
  exhibitId: z.string(),
  /** The settings each item has, with their defaults. */
  settings: z.array(ExhibitSettingSchema),
  settinglistitems: z.array(SettingListItemSchema),
});
export type SettingList = z.infer<typeof SettingListSchema>;

export type SettingGroup = {
  id: string;
  manifestId: string;
  type: 'SettingsGroup';
  groupDisplay: string;
  orderSelf: number;
  settings: ExhibitSetting[];
  strapiContent: ExhibitSetting[];
  settingLists: SettingList[];
  settingGroups: SettingGroup[];
};
export const SettingGroupSchema: z.ZodType<SettingGroup> = z.lazy(() =>
  z.object({
    id: z.string(),
    manifestId: z.string(),
    type: z.literal('SettingsGroup'),
    groupDisplay: z.string(),
    orderSelf: z.number(),
    settings: z.array(ExhibitSettingSchema),
    strapiContent: z.array(ExhibitSettingSchema),
    settingLists: z.array(SettingListSchema),
    settingGroups: z.array(SettingGroupSchema),
  }),
);

export const ExhibitManifestSchema = z.object({
  statuses: z.array(StatusSchema),
  controls: z.array(ControlSchema),
  /** Top-level settings (not in a group), StrapiContent ones excepted. */
  settings: z.array(ExhibitSettingSchema),
  /** Top-level StrapiContent settings. */
  strapiContent: z.array(ExhibitSettingSchema),
  settingLists: z.array(SettingListSchema),
  settingGroups: z.array(SettingGroupSchema),
});
export type ExhibitManifest = z.infer<typeof ExhibitManifestSchema>;

export const ManifestResponseSchema = z.object({
  manifest: ExhibitManifestSchema,
  /** Reads Off while the exhibit is offline. */
  opMode: OpModeSchema,
  online: z.boolean(),
  manifestLocked: z.boolean(),
  /** When the exhibit last sent its manifest; null if it never connected. */
  updatedAt: z.string().nullable(),
});
export type ManifestResponse = z.infer<typeof ManifestResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Params, bodies and answers of the runtime calls (spec 7.1).

/** A manifest id (of a control, a setting or a setting list) in a runtime call's path. */
const PathKey = z.string().min(1).max(200);

/** POST .../control/{controlId}. */
export const ControlParams = z.object({ id: Id, controlId: PathKey });
/** POST .../setting/{settingId} and PUT .../strapi-content/{settingId}. */
export const ExhibitSettingParams = z.object({ id: Id, settingId: PathKey });
/** The setting-list calls: .../settinglist/{listId}. */
export const SettingListParams = z.object({ id: Id, listId: PathKey });

/**
 * POST .../setting/{settingId}: a typed value; listName for a setting of a list item, and listId
 * when the setting's id is used in several lists.
 */
export const SetSettingBody = z.object({
  value: z.union([z.boolean(), z.number(), z.string(), z.null()], { message: 'value is required' }),
  listName: z.string().min(1).max(200).optional(),
  listId: PathKey.optional(),
});
export const ControlQuery = z.object({ itemId: z.string().min(1).max(100).optional() });
export const StrapiContentBody = z.object({ contentId: z.union([z.string().max(200), z.number()]).nullable() });
export const OpModeBody = z.object({ opMode: z.enum(OP_MODES, { message: 'opMode must be On or Off' }) });
/** Setting-list item names have double quotes and slashes stripped (spec 2.4). */
export const ListName = z
  .string({ message: 'listName is required' })
  .transform((v) => v.replace(/["/\\]/g, '').trim())
  .pipe(z.string().min(1, { message: 'listName must not be empty' }).max(200));
export const CreateListItemBody = z.object({ listName: ListName });
/** Copy: `settingListItem` is the name of the item whose values are copied. */
export const CopyListItemBody = z.object({ listName: ListName, settingListItem: z.string().min(1).max(200) });
export const OrderListBody = z.object({ order: z.array(z.string().min(1).max(200)).max(500) });
export const DeleteListItemQuery = z.object({ listName: z.string().min(1).max(200) });
/** Outcome of a control: it reached a live exhibit connection. */
export const ControlResultSchema = z.object({ delivered: z.literal(true) });

/** POST .../sync-followers: how many followers were sent the leader's settings. */
export const SyncFollowersResultSchema = z.object({ ok: z.literal(true), followers: z.number() });

// ---------------------------------------------------------------------------------------------
// Exhibit tokens (the auth tab) and the caller's role on an exhibit.

/** POST /auth/exhibit: a named token for an exhibit. */
export const CreateExhibitTokenBody = z.object({ name: Name, exhibitId: Id });
/** The new token, with its value: shown this once, stored hashed. */
export const CreatedExhibitTokenSchema = TokenSchema.extend({ token: z.string() });
export const ExhibitTokenListSchema = z.object({ tokens: z.array(TokenSchema) });

/** GET /exhibit-management/permission/by-exhibit-id/user/{id}: the caller's effective role on the exhibit. */
export const ExhibitUserSchema = z.object({
  exhibitUser: z.object({ exhibitId: Id, userId: Id, email: z.string(), role: UpperRoleSchema }),
});

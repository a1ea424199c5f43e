import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SettingValue, SettingValues, StatusValue } from '@plinth/shared';
import { id, jsonValue, ownedBy, updatedAt } from './columns.js';
import { exhibits, exhibitTokens } from './schema-core.js';

/**
 * Exhibit runtime tables: what the exhibit's manifest declares (statuses, controls, settings,
 * lists, groups) with their live values, its connection history, logs and report events.
 * Manifest items are keyed by their manifest id within the exhibit, so a new manifest updates
 * them in place and saved values survive.
 */

const exhibitRef = () => ownedBy('exhibit_id', () => exhibits.id);

/** The last manifest an exhibit sent, as validated, and a hash of its structure (for the lock). */
export const exhibitManifests = pgTable('exhibit_manifests', {
  exhibitId: uuid('exhibit_id')
    .primaryKey()
    .references(() => exhibits.id, { onDelete: 'cascade' }),
  manifest: jsonb('manifest').notNull(),
  structureHash: text('structure_hash').notNull(),
  updatedAt: updatedAt(),
});

export const exhibitStatuses = pgTable(
  'exhibit_statuses',
  {
    id: id(),
    exhibitId: exhibitRef(),
    manifestId: text('manifest_id').notNull(),
    type: text('type', { enum: ['String', 'Integer', 'Date', 'Color'] }).notNull(),
    display: text('display').notNull(),
    defaultValue: jsonValue<StatusValue>('default_value'),
    value: jsonValue<StatusValue>('value'),
    order: integer('order').notNull().default(0),
    /** When the exhibit last set the value (null: never). */
    valueUpdatedAt: timestamp('value_updated_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('exhibit_statuses_key').on(t.exhibitId, t.manifestId)],
);

export const exhibitControls = pgTable(
  'exhibit_controls',
  {
    id: id(),
    exhibitId: exhibitRef(),
    manifestId: text('manifest_id').notNull(),
    type: text('type', { enum: ['Single', 'Group'] }).notNull(),
    display: text('display').notNull(),
    enabledOpMode: text('enabled_op_mode', { enum: ['On', 'Off', 'none'] }).notNull().default('none'),
    order: integer('order').notNull().default(0),
  },
  (t) => [uniqueIndex('exhibit_controls_key').on(t.exhibitId, t.manifestId)],
);

/** The buttons of a Group control. */
export const exhibitControlItems = pgTable(
  'exhibit_control_items',
  {
    id: id(),
    controlId: ownedBy('control_id', () => exhibitControls.id),
    manifestId: text('manifest_id').notNull(),
    display: text('display').notNull(),
    order: integer('order').notNull().default(0),
  },
  (t) => [uniqueIndex('exhibit_control_items_key').on(t.controlId, t.manifestId)],
);

/** Navigation groups of settings; `parentManifestId` nests them. */
export const exhibitSettingGroups = pgTable(
  'exhibit_setting_groups',
  {
    id: id(),
    exhibitId: exhibitRef(),
    manifestId: text('manifest_id').notNull(),
    parentManifestId: text('parent_manifest_id'),
    groupDisplay: text('group_display').notNull(),
    order: integer('order').notNull().default(0),
  },
  (t) => [uniqueIndex('exhibit_setting_groups_key').on(t.exhibitId, t.manifestId)],
);

export const exhibitSettingLists = pgTable(
  'exhibit_setting_lists',
  {
    id: id(),
    exhibitId: exhibitRef(),
    manifestId: text('manifest_id').notNull(),
    groupManifestId: text('group_manifest_id'),
    listDisplay: text('list_display').notNull(),
    enabledOpMode: text('enabled_op_mode', { enum: ['On', 'Off', 'none'] }).notNull().default('none'),
    order: integer('order').notNull().default(0),
  },
  (t) => [uniqueIndex('exhibit_setting_lists_key').on(t.exhibitId, t.manifestId)],
);

/**
 * Setting definitions. A setting outside lists holds its value here as desired state with a
 * version; the settings of a list (listManifestId set) are templates whose values live in the
 * list's items.
 */
export const exhibitSettings = pgTable(
  'exhibit_settings',
  {
    id: id(),
    exhibitId: exhibitRef(),
    manifestId: text('manifest_id').notNull(),
    /** '' for a setting that is not in a list. */
    listManifestId: text('list_manifest_id').notNull().default(''),
    groupManifestId: text('group_manifest_id'),
    type: text('type').notNull(),
    display: text('display').notNull(),
    /** The validated manifest definition (items, min, max, contentType, ...). */
    definition: jsonb('definition').notNull(),
    /** Written only after checkSettingValue (the values of the setting's type). */
    defaultValue: jsonValue<SettingValue>('default_value'),
    value: jsonValue<SettingValue>('value'),
    /** Increases on every save; the exhibit acknowledges the version it applied. */
    version: integer('version').notNull().default(1),
    appliedVersion: integer('applied_version').notNull().default(0),
    /** StrapiContent settings: the chosen entry (id and fields) as read from the content manager when it was chosen. */
    content: jsonb('content').$type<Record<string, unknown>>(),
    enabledOpMode: text('enabled_op_mode', { enum: ['On', 'Off', 'none'] }).notNull().default('none'),
    order: integer('order').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('exhibit_settings_key').on(t.exhibitId, t.listManifestId, t.manifestId)],
);

/** Items of a setting list: their values by setting manifest id, versioned like settings. */
export const exhibitSettingListItems = pgTable(
  'exhibit_setting_list_items',
  {
    id: id(),
    listId: ownedBy('list_id', () => exhibitSettingLists.id),
    listName: text('list_name').notNull(),
    order: integer('order').notNull().default(0),
    values: jsonb('values').$type<SettingValues>().notNull().default({}),
    version: integer('version').notNull().default(1),
    appliedVersion: integer('applied_version').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('exhibit_setting_list_items_key').on(t.listId, t.listName)],
);

/** Every online/offline change of an exhibit. */
export const exhibitConnections = pgTable(
  'exhibit_connections',
  {
    id: id(),
    exhibitId: exhibitRef(),
    online: boolean('online').notNull(),
    /** The token the connection authenticated with (null once deleted, and for offline rows). */
    tokenId: uuid('token_id').references(() => exhibitTokens.id, { onDelete: 'set null' }),
    remoteAddress: text('remote_address'),
    /** Why it went offline: closed, timeout, revoked, replaced, deleted, shutdown. */
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('exhibit_connections_exhibit_idx').on(t.exhibitId, t.at)],
);

/**
 * The files of an exhibit (spec 2.5), one row per name. The content sits in the file store under
 * `objectKey`, a key new for every upload: a replacement is stored beside the old version and the
 * row switches to it in one update, so a failed upload never touches the version in use.
 */
export const exhibitFiles = pgTable(
  'exhibit_files',
  {
    id: id(),
    exhibitId: exhibitRef(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    objectKey: text('object_key').notNull(),
    contentType: text('content_type').notNull().default('application/octet-stream'),
    uploadedBy: text('uploaded_by'),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('exhibit_files_name_key').on(t.exhibitId, t.name)],
);

import { z } from 'zod';
import { Int32 } from '../numbers.js';

/**
 * The exhibit manifest: what an exhibit declares about itself (statuses, controls, settings,
 * setting lists and setting groups). The SDK validates it before sending; the server validates
 * it again on ingest. This file depends on zod only, so the SDK can compile it in.
 */

/** Op modes an item may be bound to ('none' or absent: any mode). */
export const ENABLED_OP_MODES = ['On', 'Off', 'none'] as const;
export type EnabledOpMode = (typeof ENABLED_OP_MODES)[number];

export const STATUS_TYPES = ['String', 'Integer', 'Date', 'Color'] as const;
export type StatusType = (typeof STATUS_TYPES)[number];

export const CONTROL_TYPES = ['Single', 'Group'] as const;
export type ControlType = (typeof CONTROL_TYPES)[number];

/** Setting types an exhibit may declare (SettingsList and SettingsGroup are containers). */
export const SETTING_TYPES = [
  'Toggle',
  'Dropdown',
  'TextInput',
  'TextAreaInput',
  'IntegerInput',
  'SingleButtonGroup',
  'FileSelection',
  'Date',
  'StrapiContent',
] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

/** Manifest ids starting with this prefix are hidden in the console. */
export const HIDDEN_MANIFEST_ID_PREFIX = '$gb';

/** A manifest id: 1 to 100 characters, no slash (ids travel in URL paths). */
export const ManifestId = z
  .string({ message: 'id is required' })
  .trim()
  .min(1, { message: 'id must not be empty' })
  .max(100, { message: 'id must be at most 100 characters' })
  .refine((v) => !v.includes('/'), { message: 'id must not contain "/"' });

const Display = z.string().max(200, { message: 'display must be at most 200 characters' });
/** Stored in an `integer` column. */
const Order = Int32.optional();
const EnabledOpModeSchema = z.enum(ENABLED_OP_MODES).optional();

/** An option of a Dropdown or SingleButtonGroup setting, or a button of a control group. */
export const ManifestItemSchema = z.object({ id: ManifestId, display: Display.optional(), order: Order });
export type ManifestItem = z.infer<typeof ManifestItemSchema>;

export const StatusDefinitionSchema = z.object({
  id: ManifestId,
  type: z.enum(STATUS_TYPES).default('String'),
  display: Display.optional(),
  default: z.union([z.string(), z.number(), z.null()]).optional(),
  order: Order,
});
export type StatusDefinition = z.infer<typeof StatusDefinitionSchema>;

export const ControlDefinitionSchema = z
  .object({
    id: ManifestId,
    type: z.enum(CONTROL_TYPES).default('Single'),
    display: Display.optional(),
    enabledOpMode: EnabledOpModeSchema,
    order: Order,
    /** The buttons of a Group control. */
    items: z.array(ManifestItemSchema).max(100).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.type === 'Group' && !c.items?.length) ctx.addIssue({ code: 'custom', path: ['items'], message: 'a Group control needs items' });
    if (c.type === 'Single' && c.items?.length) ctx.addIssue({ code: 'custom', path: ['items'], message: 'a Single control has no items' });
    duplicateIds(c.items ?? [], ctx, 'items');
  });
export type ControlDefinition = z.infer<typeof ControlDefinitionSchema>;

const settingBase = {
  id: ManifestId,
  display: Display.optional(),
  enabledOpMode: EnabledOpModeSchema,
  order: Order,
};
const Options = z.array(ManifestItemSchema).min(1, { message: 'items must list at least one option' }).max(500);
/** Dates are ISO 8601 strings (a date, or a date and time). */
export const IsoDateValue = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'must be an ISO date' });

/** One setting definition; `default` is checked against the type. */
export const ManifestSettingSchema = z
  .discriminatedUnion('type', [
    z.object({ ...settingBase, type: z.literal('Toggle'), default: z.boolean().optional() }),
    z.object({ ...settingBase, type: z.literal('TextInput'), default: z.string().max(10_000).optional() }),
    /** Rich text (HTML), shown with an editor in the console and always rendered as text there. */
    z.object({ ...settingBase, type: z.literal('TextAreaInput'), default: z.string().max(100_000).optional() }),
    z.object({
      ...settingBase,
      type: z.literal('IntegerInput'),
      default: z.number().int({ message: 'default must be an integer' }).optional(),
      min: z.number().int().optional(),
      max: z.number().int().optional(),
    }),
    z.object({ ...settingBase, type: z.literal('Dropdown'), items: Options, default: ManifestId.optional() }),
    z.object({ ...settingBase, type: z.literal('SingleButtonGroup'), items: Options, default: ManifestId.optional() }),
    z.object({ ...settingBase, type: z.literal('FileSelection'), default: z.string().max(1000).optional() }),
    z.object({ ...settingBase, type: z.literal('Date'), default: IsoDateValue.nullable().optional() }),
    /** A record of the organization's external content service (the value is its content id). */
    z.object({
      ...settingBase,
      type: z.literal('StrapiContent'),
      contentType: z.string().min(1, { message: 'contentType is required' }).max(100),
      displayFieldName: z.string().min(1).max(100).default('name'),
      default: z.string().max(200).nullable().optional(),
    }),
  ], { message: `type must be one of ${SETTING_TYPES.join(', ')}` })
  .superRefine((s, ctx) => {
    if ((s.type === 'Dropdown' || s.type === 'SingleButtonGroup') && s.default !== undefined) {
      if (!s.items.some((i) => i.id === s.default)) ctx.addIssue({ code: 'custom', path: ['default'], message: 'default must be one of the items' });
    }
    if (s.type === 'IntegerInput' && s.default !== undefined) {
      if (s.min !== undefined && s.default < s.min) ctx.addIssue({ code: 'custom', path: ['default'], message: `default must be at least ${s.min}` });
      if (s.max !== undefined && s.default > s.max) ctx.addIssue({ code: 'custom', path: ['default'], message: `default must be at most ${s.max}` });
    }
    if (s.type === 'Dropdown' || s.type === 'SingleButtonGroup') duplicateIds(s.items, ctx, 'items');
  });
export type ManifestSetting = z.infer<typeof ManifestSettingSchema>;

/** A setting value, typed by the setting's type (booleans for toggles, numbers for integers). */
export type SettingValue = boolean | number | string | null;
/** Values of one setting-list item (or of a whole exhibit), by setting manifest id. */
export type SettingValues = Record<string, SettingValue>;

/** A setting value as sent (checked against its setting's type where it is used); never nested. */
const SettingValueInput = z.union([z.boolean(), z.number(), z.string().max(100_000), z.null()], {
  message: 'must be a boolean, a number, a string or null',
});

/** A named, ordered list of items that each hold a value for every setting of the list. */
export const SettingListDefinitionSchema = z
  .object({
    id: ManifestId,
    listDisplay: Display.optional(),
    enabledOpMode: EnabledOpModeSchema,
    order: Order,
    /** The settings every item of the list has. */
    settings: z.array(ManifestSettingSchema).min(1, { message: 'a setting list needs settings' }).max(200),
    /** Items created when the list first appears; later the console manages them. */
    defaultItems: z
      .array(z.object({ listName: z.string().trim().min(1).max(200), values: z.record(z.string().max(200), SettingValueInput).optional() }))
      .max(500)
      .optional(),
  })
  .superRefine((l, ctx) => {
    duplicateIds(l.settings, ctx, 'settings');
    const names = new Set<string>();
    (l.defaultItems ?? []).forEach((item, i) => {
      if (names.has(item.listName)) ctx.addIssue({ code: 'custom', path: ['defaultItems', i, 'listName'], message: `duplicate listName "${item.listName}"` });
      names.add(item.listName);
    });
  });
export type SettingListDefinition = z.infer<typeof SettingListDefinitionSchema>;

/** A named group of settings, lists and nested groups (navigation only; no value of its own). */
export type SettingGroupDefinition = {
  id: string;
  groupDisplay?: string;
  order?: number;
  settings?: ManifestSetting[];
  settingLists?: SettingListDefinition[];
  settingGroups?: SettingGroupDefinition[];
};
export const SettingGroupDefinitionSchema: z.ZodType<SettingGroupDefinition, unknown> = z.lazy(() =>
  z.object({
    id: ManifestId,
    groupDisplay: Display.optional(),
    order: Order,
    settings: z.array(ManifestSettingSchema).max(500).optional(),
    settingLists: z.array(SettingListDefinitionSchema).max(100).optional(),
    settingGroups: z.array(SettingGroupDefinitionSchema).max(100).optional(),
  }),
);

/**
 * The manifest an exhibit sends (JSON written by the exhibit's developer). An unknown top-level
 * key is refused, naming it: a misspelt `setings` must not read as a manifest without settings.
 */
export const ManifestSchema = z
  .strictObject({
    statuses: z.array(StatusDefinitionSchema).max(500).default([]),
    controls: z.array(ControlDefinitionSchema).max(500).default([]),
    settings: z.array(ManifestSettingSchema).max(1000).default([]),
    settingLists: z.array(SettingListDefinitionSchema).max(100).default([]),
    settingGroups: z.array(SettingGroupDefinitionSchema).max(100).default([]),
  })
  .superRefine((m, ctx) => {
    duplicateIds(m.statuses, ctx, 'statuses');
    duplicateIds(m.controls, ctx, 'controls');
    // Settings, lists and groups share one namespace across the whole manifest (groups are
    // navigation only, so a setting id is unique wherever it sits).
    const seen = new Map<string, string>();
    const visit = (id: string, where: (string | number)[]) => {
      const key = where.join('.');
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [...where, 'id'], message: `duplicate id "${id}" (also at ${seen.get(id)})` });
      else seen.set(id, key);
    };
    const walk = (g: { settings?: ManifestSetting[]; settingLists?: SettingListDefinition[]; settingGroups?: SettingGroupDefinition[] }, at: (string | number)[]) => {
      g.settings?.forEach((s, i) => visit(s.id, [...at, 'settings', i]));
      g.settingLists?.forEach((l, i) => visit(l.id, [...at, 'settingLists', i]));
      g.settingGroups?.forEach((sub, i) => {
        visit(sub.id, [...at, 'settingGroups', i]);
        walk(sub, [...at, 'settingGroups', i]);
      });
    };
    walk(m, []);
  });
export type Manifest = z.infer<typeof ManifestSchema>;
/** A manifest as written (optional arrays may be left out). */
export type ManifestInput = z.input<typeof ManifestSchema>;
/** Gumband's manifest files wrap the manifest in one `manifest` key; Plinth reads both forms. */
export type WrappedManifestInput = { manifest: ManifestInput };

function duplicateIds(items: { id: string }[], ctx: z.RefinementCtx, path: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [path, i, 'id'], message: `duplicate id "${item.id}"` });
    seen.add(item.id);
  });
}

type ParsedManifest = { success: true; manifest: Manifest } | { success: false; message: string };

/**
 * Parses a manifest, bare or in the wrapped form `{"manifest": {...}}` (which is read as the
 * manifest it wraps; a key beside `manifest` is refused). On failure the message names the
 * offending item by its id, e.g. `settings[2] "volume": default: default must be an integer`.
 */
export function parseManifest(input: unknown): ParsedManifest {
  if (!isWrappedManifest(input)) return parseBareManifest(input);
  const beside = Object.keys(input).filter((key) => key !== 'manifest');
  if (beside.length) return { success: false, message: `Invalid manifest: unknown key ${beside.map((k) => JSON.stringify(k)).join(', ')} beside "manifest"` };
  return parseBareManifest(input.manifest);
}

/** An object holding a `manifest` key: the wrapped form (a bare manifest has no such key). */
function isWrappedManifest(input: unknown): input is Record<string, unknown> & { manifest: unknown } {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && Object.hasOwn(input, 'manifest');
}

function parseBareManifest(input: unknown): ParsedManifest {
  const parsed = ManifestSchema.safeParse(input);
  if (parsed.success) return { success: true, manifest: parsed.data };
  const problems = parsed.error.issues.slice(0, 5).map((issue) => describeIssue(input, issue.path, issue.message));
  return { success: false, message: `Invalid manifest: ${problems.join('; ')}` };
}

function describeIssue(input: unknown, path: readonly PropertyKey[], message: string): string {
  const parts: string[] = [];
  let node: unknown = input;
  let i = 0;
  for (; i < path.length; i++) {
    const key = path[i]!;
    if (typeof key === 'number') {
      node = Array.isArray(node) ? node[key] : undefined;
      const id = node && typeof node === 'object' && 'id' in node ? (node as { id: unknown }).id : undefined;
      parts[parts.length - 1] = `${parts[parts.length - 1] ?? ''}[${key}]${typeof id === 'string' ? ` "${id}"` : ''}`;
    } else {
      const next = node && typeof node === 'object' ? (node as Record<string, unknown>)[String(key)] : undefined;
      const isContainer = Array.isArray(next);
      if (!isContainer) break;
      parts.push(String(key));
      node = next;
    }
  }
  const rest = path.slice(i).map(String).join('.');
  const where = parts.join(' > ') || 'manifest';
  return `${where}: ${rest && !message.startsWith(rest) ? `${rest}: ` : ''}${message}`;
}

/** The default value of a setting, when its definition gives none: typed by setting type. */
export function defaultSettingValue(def: ManifestSetting): SettingValue {
  switch (def.type) {
    case 'Toggle':
      return def.default ?? false;
    case 'IntegerInput':
      return def.default ?? (def.min !== undefined && def.min > 0 ? def.min : 0);
    case 'Dropdown':
    case 'SingleButtonGroup':
      return def.default ?? [...def.items].sort(byOrder)[0]!.id;
    case 'Date':
    case 'StrapiContent':
      return def.default ?? null;
    default:
      return def.default ?? '';
  }
}

function byOrder(a: { order?: number }, b: { order?: number }): number {
  return (a.order ?? 0) - (b.order ?? 0);
}

/**
 * Checks a value against its setting; answers the typed value or an error message naming the
 * setting (`Setting "volume" needs an integer`). Never coerces "true" to true.
 */
export function checkSettingValue(
  def: ManifestSetting,
  value: unknown,
): { ok: true; value: SettingValue } | { ok: false; message: string } {
  const name = `Setting "${def.id}"`;
  switch (def.type) {
    case 'Toggle':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: `${name} needs true or false` };
    case 'IntegerInput':
      if (typeof value !== 'number' || !Number.isInteger(value)) return { ok: false, message: `${name} needs an integer` };
      if (def.min !== undefined && value < def.min) return { ok: false, message: `${name} must be at least ${def.min}` };
      if (def.max !== undefined && value > def.max) return { ok: false, message: `${name} must be at most ${def.max}` };
      return { ok: true, value };
    case 'Dropdown':
    case 'SingleButtonGroup':
      if (typeof value !== 'string' || !def.items.some((i) => i.id === value)) {
        return { ok: false, message: `${name} needs one of ${def.items.map((i) => `"${i.id}"`).join(', ')}` };
      }
      return { ok: true, value };
    case 'Date':
      if (value === null) return { ok: true, value };
      return typeof value === 'string' && !Number.isNaN(Date.parse(value))
        ? { ok: true, value }
        : { ok: false, message: `${name} needs an ISO date` };
    case 'StrapiContent':
      if (value === null) return { ok: true, value };
      return typeof value === 'string' && value.length <= 200 ? { ok: true, value } : { ok: false, message: `${name} needs a content id` };
    case 'TextInput':
    case 'TextAreaInput':
    case 'FileSelection': {
      const limit = def.type === 'TextAreaInput' ? 100_000 : def.type === 'FileSelection' ? 1000 : 10_000;
      if (typeof value !== 'string') return { ok: false, message: `${name} needs text` };
      if (value.length > limit) return { ok: false, message: `${name} must be at most ${limit} characters` };
      return { ok: true, value };
    }
  }
}

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

const SettingValueSchema = z.union([z.boolean(), z.number(), z.string(), z.null()]);

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
  opMode: z.enum(['On', 'Off']),
  online: z.boolean(),
  manifestLocked: z.boolean(),
  /** When the exhibit last sent its manifest; null if it never connected. */
  updatedAt: z.string().nullable(),
});
export type ManifestResponse = z.infer<typeof ManifestResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Request bodies of the exhibit runtime calls (spec 7.1).

/** POST .../setting/{settingId}: a typed value; listName for a setting of a list item. */
export const SetSettingBody = z.object({
  value: z.union([z.boolean(), z.number(), z.string(), z.null()], { message: 'value is required' }),
  listName: z.string().min(1).max(200).optional(),
});
export const ControlQuery = z.object({ itemId: z.string().min(1).max(100).optional() });
export const StrapiContentBody = z.object({ contentId: z.union([z.string().max(200), z.number()]).nullable() });
export const OpModeBody = z.object({ opMode: z.enum(['On', 'Off'], { message: 'opMode must be On or Off' }) });
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

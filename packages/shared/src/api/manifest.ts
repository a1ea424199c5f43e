import { z } from 'zod';
import { Int32 } from '../numbers.js';

/**
 * The exhibit manifest: what an exhibit declares about itself (statuses, controls, settings,
 * setting lists and setting groups). The SDK validates it before sending; the server validates
 * it again on ingest. This file depends on zod only, so the SDK can compile it in.
 *
 * The rules for a setting's values are in setting-value.ts; what the console reads of a manifest
 * (GET .../manifest and the runtime calls) is in exhibit-runtime.ts.
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

/**
 * A value of a list's default item as the manifest gives it (checked against its setting's type
 * where it is used); never nested.
 */
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

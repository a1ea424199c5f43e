import { z } from 'zod';
import { Id, IsoDate, LowerRoleSchema, Name, RoleInput, Email } from './common.js';

export const SettingSchema = z.object({
  id: Id,
  idString: z.string(),
  display: z.string(),
  value: z.string(),
  kind: z.enum(['text', 'contentManager', 'analytics', 'reportUrl', 'timeZone', 'switch', 'days']),
  /** Set when the setting belongs to (and is inherited from) the organization. */
  OrganizationId: Id.nullable(),
  /** Set when the setting belongs to the site. */
  SiteId: Id.nullable(),
});
export type Setting = z.infer<typeof SettingSchema>;

export const SettingValueBody = z.object({
  value: z.string({ message: 'is required' }).max(20_000, { message: 'must be at most 20000 characters' }),
});
/** A setting's id string in a path. */
const SettingIdString = z.string().min(1).max(100);
/** PUT /org-management/organization/{id}/setting/{idString}. */
export const SettingParams = z.object({ id: Id, idString: SettingIdString });
/** PUT /org-management/site/setting/{siteId}/{idString}. */
export const SiteSettingParams = z.object({ siteId: Id, idString: SettingIdString });
/** The site calls that name the site `siteId` in their path (its settings, its users). */
export const SiteIdParams = z.object({ siteId: Id });

/** The content-manager config as the server uses it; its passwords never leave the server. */
export const ContentManagerConfigSchema = z.object({
  url: z.string().default(''),
  adminUser: z.string().default(''),
  adminPassword: z.string().default(''),
  editorUser: z.string().default(''),
  editorPassword: z.string().default(''),
  apiUser: z.string().default(''),
  apiPassword: z.string().default(''),
});
export type ContentManagerConfig = z.infer<typeof ContentManagerConfigSchema>;

/** The password fields of the content-manager config: write-only, stored encrypted. */
export const CONTENT_MANAGER_SECRET_FIELDS = ['adminPassword', 'editorPassword', 'apiPassword'] as const;
export type ContentManagerSecretField = (typeof CONTENT_MANAGER_SECRET_FIELDS)[number];

/** A password as a save sends it: left out or '' keeps the stored one, null removes it. */
const SecretInput = z.string().nullable().optional();

/**
 * The content-manager config a save sends (JSON text in the setting's value). A new URL needs
 * every stored password again (or null): stored passwords only go to the URL they were saved for.
 */
export const ContentManagerConfigInputSchema = z.object({
  url: z.string().default(''),
  adminUser: z.string().default(''),
  adminPassword: SecretInput,
  editorUser: z.string().default(''),
  editorPassword: SecretInput,
  apiUser: z.string().default(''),
  apiPassword: SecretInput,
});
export type ContentManagerConfigInput = z.infer<typeof ContentManagerConfigInputSchema>;

/** A password as every answer shows it: always ''. */
const SecretShown = z.literal('').catch('');

/**
 * The content-manager config as every answer shows it (JSON text in the setting's value): the
 * URL and users, each password '' and whether one is stored (`…PasswordSet`).
 */
export const ContentManagerConfigViewSchema = z.object({
  url: z.string().default(''),
  adminUser: z.string().default(''),
  adminPassword: SecretShown,
  adminPasswordSet: z.boolean().default(false),
  editorUser: z.string().default(''),
  editorPassword: SecretShown,
  editorPasswordSet: z.boolean().default(false),
  apiUser: z.string().default(''),
  apiPassword: SecretShown,
  apiPasswordSet: z.boolean().default(false),
});
export type ContentManagerConfigView = z.infer<typeof ContentManagerConfigViewSchema>;

export const AnalyticsConfigSchema = z.object({
  url: z.string().default(''),
  suiteId: z.string().default(''),
  /** Exhibit ids, comma separated. */
  exhibitIds: z.string().default(''),
});
export type AnalyticsConfig = z.infer<typeof AnalyticsConfigSchema>;

/** What the home screen and lists need to know about an organization. */
export const OrganizationSummarySchema = z.object({
  id: Id,
  name: z.string(),
  /** The caller's role on the organization; null when it is visible only through a site or exhibit grant. */
  role: LowerRoleSchema.nullable(),
  /** Organization manager or platform admin: may edit and delete it. */
  isAdmin: z.boolean(),
  /** May create sites in it. */
  canCreate: z.boolean(),
  createdAt: IsoDate,
});
export type OrganizationSummary = z.infer<typeof OrganizationSummarySchema>;

export const SiteSummarySchema = z.object({
  id: Id,
  name: z.string(),
  organizationId: Id,
  organizationName: z.string(),
  /** The caller's effective role on the site (its own grant, else the organization's); null when visible only through an exhibit grant. */
  role: LowerRoleSchema.nullable(),
  /** May edit and delete the site. */
  canCreate: z.boolean(),
  createdAt: IsoDate,
});
export type SiteSummary = z.infer<typeof SiteSummarySchema>;

export const OrganizationSchema = OrganizationSummarySchema.extend({
  sites: z.array(SiteSummarySchema),
  organizationsettings: z.array(SettingSchema),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const OrganizationListSchema = z.object({
  organizations: z.array(OrganizationSummarySchema),
  /** The caller may create organizations (platform admins). */
  canCreate: z.boolean(),
});

export const CreateOrganizationBody = z.object({ name: Name });
export const UpdateOrganizationBody = z.object({ name: Name });

export const SiteSchema = SiteSummarySchema.extend({ sitesettings: z.array(SettingSchema) });
export type Site = z.infer<typeof SiteSchema>;
export const SiteListSchema = z.object({ sites: z.array(SiteSummarySchema) });
export const CreateSiteBody = z.object({ name: Name, organizationId: Id });
export const UpdateSiteBody = z.object({ name: Name });
export const SiteSettingsSchema = z.object({ siteSettings: z.array(SettingSchema) });

export const StrapiLoginQuery = z.object({ organizationId: Id });
export const StrapiLoginResponse = z.object({ user: z.unknown(), token: z.string() });
export const StrapiAuthBody = z.object({ organizationId: Id });
export const StrapiAuthResponse = z.object({ jwt: z.string() });

export const PermissionSchema = z.object({
  id: Id,
  userId: Id,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: LowerRoleSchema,
  /** False while the invited user has not created an account yet. */
  accountCreated: z.boolean(),
});
export type Permission = z.infer<typeof PermissionSchema>;
export const PermissionListSchema = z.object({
  permissions: z.array(PermissionSchema),
  /** The caller may add, change and remove users here. */
  canManage: z.boolean(),
});
export const OrganizationPermissionQuery = z.object({ organizationId: Id });
export const CreateOrganizationPermissionBody = z.object({
  organizationId: Id,
  email: Email,
  role: RoleInput.optional(),
});
export const CreateSitePermissionBody = z.object({ siteId: Id, email: Email, role: RoleInput.optional() });
export const UpdatePermissionBody = z.object({ role: RoleInput });

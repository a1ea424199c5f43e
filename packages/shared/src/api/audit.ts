import { z } from 'zod';
import { Id } from './common.js';
import { EpochMs } from './logging.js';

/**
 * The audit log (issue 20): every change a person or an API key made in an organization, append
 * only and hash-chained per organization. Read by organization managers and platform admins,
 * newest first, paged by cursor; the same filters give the CSV.
 */

/** What was done to the resource. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'revoke', 'opMode', 'lock', 'unlock', 'deploy', 'cancel', 'upload', 'call'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a signed-in person or an API key. */
export const AUDIT_ACTOR_KINDS = ['user', 'apiKey'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Entries per page by default, and the most a caller may ask for. */
export const AUDIT_ENTRIES_PER_PAGE = 50;
export const MAX_AUDIT_ENTRIES_PER_PAGE = 500;
/** How long an organization keeps its entries unless its `audit_retention_days` setting says otherwise. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
/** The shortest and longest retention an organization may set, in days. */
export const MIN_AUDIT_RETENTION_DAYS = 1;
export const MAX_AUDIT_RETENTION_DAYS = 36_500;

/** The filters of the list and of the CSV (all optional; times in epoch milliseconds, `to` excluded). */
const AuditFilterFields = {
  siteId: Id.optional(),
  exhibitId: Id.optional(),
  hardwareId: Id.optional(),
  /** Part of the actor's label (an email, or an API key's name), case-insensitive. */
  actor: z.string().trim().min(1).max(200).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: EpochMs.optional(),
  to: EpochMs.optional(),
};

/** GET /audit/organization/{id}/entries.csv */
export const AuditCsvQuery = z.object(AuditFilterFields);
export type AuditFilters = z.infer<typeof AuditCsvQuery>;

/** GET /audit/organization/{id}/entries */
export const AuditListQuery = z.object({
  ...AuditFilterFields,
  /** The `nextCursor` of the previous page; absent for the newest entries. */
  cursor: z.string().regex(/^\d{1,18}$/, { message: 'must be a cursor from a previous page' }).optional(),
  pageSize: z.coerce.number({ message: 'must be a number of entries' }).int().min(1).max(MAX_AUDIT_ENTRIES_PER_PAGE).default(AUDIT_ENTRIES_PER_PAGE),
});
export type AuditListQueryInput = z.input<typeof AuditListQuery>;

export const AuditEntrySchema = z.object({
  id: Id,
  /** Place in the organization's chain (1, 2, …). */
  sequence: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  actor: z.object({ kind: z.enum(AUDIT_ACTOR_KINDS), id: z.string(), label: z.string() }),
  /** The caller's IP address as the server saw it (behind a trusted proxy, the client's). */
  address: z.string().nullable(),
  organizationId: Id,
  siteId: Id.nullable(),
  exhibitId: Id.nullable(),
  hardwareId: Id.nullable(),
  /** What was changed: 'organizationSetting', 'exhibit', 'exhibitToken', … */
  resource: z.string(),
  resourceId: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  /** The resource before and after (JSON values), secrets redacted; null when there is none (created, deleted). */
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** GET /audit/organization/{id}/entries.csv: a CSV file (streamed; RFC 4180, formula-like cells prefixed with an apostrophe). */
export const AuditCsvSchema = z.string();

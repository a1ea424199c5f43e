import { z } from 'zod';
import { Id, IsoDate, Name, RoleInput, UpperRoleSchema } from './common.js';

/** What every API key starts with, so a leaked key is recognised (secret scanners, logs). */
export const API_KEY_PREFIX = 'plk_';

/** POST /org-management/organization/{id}/api-keys: a new key of the organization. */
export const CreateApiKeyBody = z.object({
  name: Name,
  role: RoleInput,
  /** The sites the key is limited to; left out or null for the whole organization. */
  siteIds: z.array(Id).min(1, { message: 'must name at least one site (or be left out for the whole organization)' }).max(500).nullable().optional(),
  /** When the key stops working; left out or null for never. */
  expiresAt: z.iso.datetime({ offset: true, message: 'must be an ISO date-time' }).nullable().optional(),
});
export type CreateApiKeyInput = z.input<typeof CreateApiKeyBody>;

/** An API key as listed: never its value. */
export const ApiKeySchema = z.object({
  id: Id,
  organizationId: Id,
  name: z.string(),
  role: UpperRoleSchema,
  /** The sites the key is limited to (with their names); null for the whole organization. */
  sites: z.array(z.object({ id: Id, name: z.string() })).nullable(),
  expiresAt: IsoDate.nullable(),
  createdBy: z.string(),
  createdAt: IsoDate,
  /** The last call made with the key, to the minute; null when never used. */
  lastUsedAt: IsoDate.nullable(),
  revokedAt: IsoDate.nullable(),
  revokedBy: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) });
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

/** The create answer: the only time the key's value is ever shown. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

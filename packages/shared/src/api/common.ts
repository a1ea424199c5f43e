import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../constants.js';
import { ROLES } from '../roles.js';

/** A record id (UUID). */
export const Id = z.uuid({ message: 'must be a valid id' });

/** Id's own pattern (zod's UUID), tested without a parse: for a value checked on every message. */
const ID_PATTERN = z.regexes.uuid();

/** Whether Id accepts the value; no result or issue is made (common.test.ts keeps the two in step). */
export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** A display name: trimmed, 1 to 200 characters. */
export const Name = z
  .string({ message: 'is required' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(MAX_NAME_LENGTH, { message: `must be at most ${MAX_NAME_LENGTH} characters` });

/** An email address; stored lowercased. */
export const Email = z
  .string({ message: 'is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'InvalidEmail' }));

/** A role in either case, answered in the canonical upper case. */
export const RoleInput = z
  .string({ message: 'is required' })
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(ROLES, { message: 'must be one of manager, developer, viewer' }));

export const LowerRoleSchema = z.enum(['manager', 'developer', 'viewer']);
export const UpperRoleSchema = z.enum(ROLES);

export const IdParams = z.object({ id: Id });

export const ErrorBodySchema = z.object({
  response: z.string(),
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});

export const OkSchema = z.object({ ok: z.literal(true) });

/** A date-time as an ISO string. */
export const IsoDate = z.string();

/** A device as lists show it: its name and where it stands (site and organization), for exhibits and hardware alike. */
export const SitePlacedSchema = z.object({
  id: Id,
  name: z.string(),
  siteId: Id,
  siteName: z.string(),
  organizationId: Id,
  organizationName: z.string(),
});
export type SitePlaced = z.infer<typeof SitePlacedSchema>;

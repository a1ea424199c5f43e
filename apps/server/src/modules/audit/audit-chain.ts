import { createHash } from 'node:crypto';

/** The hash an organization's first entry follows. */
export const GENESIS_HASH = '0'.repeat(64);

/** What replaces a secret's value in the stored before and after. */
export const REDACTED = '[redacted]';

/** Keys whose values are secrets: never stored, whatever the resource. */
const SECRET_KEY = /(pass(word)?|secret|token|jwt|credential|private.?key|api.?key|^key)$/i;

/**
 * JSON with object keys sorted at every depth, so one value always gives the same text (and the
 * same hash), whoever wrote it. `undefined` members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

/**
 * The value with every secret replaced by REDACTED: members whose key names a secret (password,
 * token, secret, api key…) at any depth, also inside strings holding a JSON object (a
 * content-manager config is stored as JSON text).
 */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'string') return redactJsonText(value);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) && member !== null && member !== '' && member !== undefined ? REDACTED : redact(member);
    }
    return out;
  }
  return value;
}

function redactJsonText(text: string): string {
  if (!text.startsWith('{')) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? JSON.stringify(redact(parsed)) : text;
  } catch {
    return text;
  }
}

/** The fields of an entry its hash covers: everything but its id and the hashes. */
export type ChainedFields = {
  organizationId: string;
  sequence: number;
  at: Date;
  actorKind: 'user' | 'apiKey';
  actorId: string;
  actorLabel: string;
  address: string | null;
  siteId: string | null;
  exhibitId: string | null;
  hardwareId: string | null;
  resource: string;
  resourceId: string;
  action: string;
  beforeJson: string | null;
  afterJson: string | null;
};

/** sha256 (hex) of the previous entry's hash and the canonical JSON of this entry's fields. */
export function entryHash(prevHash: string, fields: ChainedFields): string {
  return createHash('sha256').update(`${prevHash}\n${canonicalJson({ ...fields, at: fields.at.toISOString() })}`).digest('hex');
}

/** The fields an update changes, before and after; null when it changes none. */
export function fieldChanges<T extends object>(current: T, update: Partial<T>): { before: Partial<T>; after: Partial<T>; fields: (keyof T)[] } | null {
  const fields = (Object.keys(update) as (keyof T)[]).filter((field) => update[field] !== undefined && update[field] !== current[field]);
  if (!fields.length) return null;
  const pick = (from: Partial<T>) => Object.fromEntries(fields.map((field) => [field, from[field]])) as Partial<T>;
  return { before: pick(current), after: pick(update), fields };
}

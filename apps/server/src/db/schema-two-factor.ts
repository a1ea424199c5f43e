import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ownedBy } from './columns.js';
import { users } from './schema-core.js';

/**
 * Two-factor sign-in (TOTP, RFC 6238) of password accounts. One row per user who started an
 * enrolment: `enabledAt` null while the code check has not confirmed it yet.
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The TOTP secret (base32), sealed with the secret box (context `two-factor:<userId>`). */
  secretSealed: text('secret_sealed').notNull(),
  /** When the code check confirmed the enrolment; null while it is pending. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The 30-second step of the last code accepted: a code is never accepted twice. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes: only the SHA-256 of each is kept; `usedAt` set once it signed someone in. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: id(),
    userId: ownedBy('user_id', () => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);

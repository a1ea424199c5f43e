import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { SETTING_IDS } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { twoFactorRecoveryCodes, userTwoFactor, users } from '../../db/schema.js';

export type TwoFactorRow = typeof userTwoFactor.$inferSelect;

/** The user's two-factor row (pending or enabled), if any. */
export async function findTwoFactor(db: Db, userId: string): Promise<TwoFactorRow | undefined> {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  return row;
}

/** Starts (or restarts) a pending enrolment with a new sealed secret; never touches an enabled one. */
export async function upsertPendingTwoFactor(db: Db, row: { userId: string; secretSealed: string }): Promise<boolean> {
  const saved = await db
    .insert(userTwoFactor)
    .values({ ...row, enabledAt: null, lastUsedStep: null })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secretSealed: row.secretSealed, lastUsedStep: null, createdAt: new Date() },
      setWhere: isNull(userTwoFactor.enabledAt),
    })
    .returning({ userId: userTwoFactor.userId });
  return saved.length > 0;
}

/**
 * Records that the code of `step` was used, only when no code of this step or a later one was:
 * answers false for a replayed code (also when two nodes see the same code at once).
 */
export async function claimTwoFactorStep(db: Db, claim: { userId: string; step: number; enable?: Date }): Promise<boolean> {
  const rows = await db
    .update(userTwoFactor)
    .set({ lastUsedStep: claim.step, ...(claim.enable ? { enabledAt: claim.enable } : {}) })
    .where(
      and(
        eq(userTwoFactor.userId, claim.userId),
        sql`(${userTwoFactor.lastUsedStep} IS NULL OR ${userTwoFactor.lastUsedStep} < ${claim.step})`,
        claim.enable ? isNull(userTwoFactor.enabledAt) : sql`${userTwoFactor.enabledAt} IS NOT NULL`,
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/** Replaces the user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(db: Db, userId: string, codeHashes: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx.insert(twoFactorRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  });
}

/** Marks an unused recovery code used; answers false when there is none of that hash left. */
export async function useRecoveryCode(db: Db, use: { userId: string; codeHash: string; now: Date }): Promise<boolean> {
  const rows = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: use.now })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, use.userId),
        eq(twoFactorRecoveryCodes.codeHash, use.codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return rows.length > 0;
}

/** How many recovery codes the user has left. */
export async function countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/** Turns two-factor sign-in off: the secret and the recovery codes go. */
export async function deleteTwoFactor(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  });
}

/**
 * The outer query's user columns, always qualified: drizzle leaves a single-table select's columns
 * bare, and a bare `id` inside the subqueries below would name their own tables' ids.
 */
const USER_ID = sql.raw('"users"."id"');
const USER_PASSWORD_HASH = sql.raw('"users"."password_hash"');

/**
 * True when an organization the user (`users` row of the query) has a role in, on the
 * organization itself or on one of its sites or exhibits, has `require_two_factor` on.
 */
function requiredByOrganizationSql(): SQL<boolean> {
  return sql<boolean>`exists (
    select 1 from organization_settings s
    where s.id_string = ${SETTING_IDS.requireTwoFactor} and s.value = 'true' and s.organization_id in (
      select op.organization_id from organization_permissions op where op.user_id = ${USER_ID}
      union select si.organization_id from site_permissions sp join sites si on si.id = sp.site_id where sp.user_id = ${USER_ID}
      union select si.organization_id from exhibit_permissions ep join exhibits e on e.id = ep.exhibit_id
        join sites si on si.id = e.site_id where ep.user_id = ${USER_ID}))`;
}

/** True when the user has two-factor sign-in on. */
function enabledSql(): SQL<boolean> {
  return sql<boolean>`exists (select 1 from user_two_factor t where t.user_id = ${USER_ID} and t.enabled_at is not null)`;
}

/**
 * For a query on `users`: the user signs in with a password, has no two-factor sign-in, and an
 * organization they have a role in requires it (SSO-only accounts are left to their identity provider).
 */
export function mustEnrolTwoFactorSql(): SQL<boolean> {
  return sql<boolean>`(${USER_PASSWORD_HASH} is not null and not ${enabledSql()} and ${requiredByOrganizationSql()})`;
}

/** Whether the user has two-factor sign-in on, and whether an organization of theirs requires it. */
export async function findTwoFactorState(db: Db, userId: string): Promise<{ enabled: boolean; required: boolean; hasPassword: boolean } | undefined> {
  const [row] = await db
    .select({
      enabled: enabledSql(),
      required: requiredByOrganizationSql(),
      hasPassword: sql<boolean>`${USER_PASSWORD_HASH} is not null`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountLinks } from '../../db/schema.js';

export type AccountLinkRow = typeof accountLinks.$inferSelect;
export type LinkKind = AccountLinkRow['kind'];

/** A new one-use link, stored by the hash of its secret. */
export type NewAccountLink = { kind: LinkKind; userId: string | null; tokenHash: string; expiresAt: Date };

/**
 * Stores a new link and, in the same transaction, deletes the unused links of the same kind for
 * the same user (or, for links without a user, of the same kind), so only the newest one works.
 */
export async function replaceAccountLink(db: Db, link: NewAccountLink): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(accountLinks)
      .where(
        and(
          eq(accountLinks.kind, link.kind),
          link.userId ? eq(accountLinks.userId, link.userId) : isNull(accountLinks.userId),
          isNull(accountLinks.usedAt),
        ),
      );
    await tx.insert(accountLinks).values(link);
  });
}

/** The link whose secret has this hash, used or not. */
export async function findAccountLinkByHash(db: Db, tokenHash: string): Promise<AccountLinkRow | undefined> {
  const [row] = await db.select().from(accountLinks).where(eq(accountLinks.tokenHash, tokenHash));
  return row;
}

/** Marks the link used at `usedAt` unless it already was; answers whether this call did. */
export async function markAccountLinkUsed(db: Db, id: string, usedAt: Date): Promise<boolean> {
  const rows = await db
    .update(accountLinks)
    .set({ usedAt })
    .where(and(eq(accountLinks.id, id), isNull(accountLinks.usedAt)))
    .returning({ id: accountLinks.id });
  return rows.length === 1;
}

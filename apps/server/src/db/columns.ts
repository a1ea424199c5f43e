import { timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Column builders the tables share, so that each is written once (the SQL is the same everywhere). */

/** A random uuid primary key. */
export const id = () => uuid('id').primaryKey().defaultRandom();

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A required reference to the row that owns this one: deleting the owner deletes this row too. */
export const ownedBy = (name: string, owner: () => AnyPgColumn) => uuid(name).notNull().references(owner, { onDelete: 'cascade' });

import { customType, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Column builders the tables share, so that each is written once (the SQL is the same everywhere). */

/** A random uuid primary key. */
export const id = () => uuid('id').primaryKey().defaultRandom();

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A required reference to the row that owns this one: deleting the owner deletes this row too. */
export const ownedBy = (name: string, owner: () => AnyPgColumn) => uuid(name).notNull().references(owner, { onDelete: 'cascade' });

/**
 * A jsonb column read back exactly as written. drizzle's own `jsonb` parses once more any string
 * the driver hands it, but node-postgres and PGlite have already parsed the JSON: a stored text
 * "42" (a text setting, a StrapiContent id) came back as the number 42. Use it for columns whose
 * value may be a string at the top level.
 */
export const jsonValue = <T>(name: string) =>
  customType<{ data: T; driverData: unknown }>({
    dataType: () => 'jsonb',
    toDriver: (value) => JSON.stringify(value),
    // The driver parsed the JSON already; a string here is a JSON string's value.
    fromDriver: (value) => value as T,
  })(name);

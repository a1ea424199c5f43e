import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import * as schema from './schema.js';
import { lockDataDir } from './lock.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Runs the forward-only migrations in apps/server/drizzle. */
  migrate: () => Promise<void>;
  close: () => Promise<void>;
};

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
/** Key of the advisory lock that serialises migrations between server instances. */
const MIGRATION_LOCK_KEY = 72_110_001;

export type DatabaseOptions = {
  databaseUrl?: string;
  dataDir: string;
  holder: string;
  /** Where errors of idle PostgreSQL connections go (they must never crash the process). */
  onError?: (error: Error) => void;
  /**
   * How long a query waits for a PostgreSQL connection (ms) before it fails, so that a request
   * answers 503 while the database is away instead of hanging. Default 5000.
   */
  connectTimeoutMs?: number;
};

/** PostgreSQL when a URL is given, else PGlite in DATA_DIR/pgdata (locked to this process). */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      onError: options.onError ?? ((error) => console.warn(`PostgreSQL connection error: ${error.message}`)),
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    });
  }
  const release = lockDataDir(options.dataDir, options.holder);
  try {
    const client = await PGlite.create(path.join(options.dataDir, 'pgdata'));
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      migrate: async () => {
        await migratePglite(db as never, { migrationsFolder: MIGRATIONS });
      },
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

function openPostgres(url: string, { onError, connectTimeoutMs }: { onError: (error: Error) => void; connectTimeoutMs: number }): Database {
  // keepAlive: a connection whose network was cut is found dead instead of waiting for ever.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
  // An idle client's error (PostgreSQL restarted, the connection was cut) is reported, not thrown:
  // the pool replaces the client at the next query.
  pool.on('error', onError);
  // pool.end() resolves once its clients are asked to end; close() waits until they have.
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    open.add(client);
    client.on('error', onError);
    client.once('end', () => open.delete(client));
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    close: async () => {
      const ended = [...open].map((client) => new Promise<void>((resolve) => client.once('end', () => resolve())));
      await pool.end();
      await Promise.all(ended);
    },
  };
}

/** A cheap query to prove the database answers. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

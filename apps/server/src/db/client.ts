import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Metrics } from '../lib/metrics.js';
import { PgliteThread } from './pglite-thread.js';
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
  /** Where query times and pool waits are counted (the server's metrics); none for command-line tasks. */
  metrics?: DatabaseMetrics;
};

/** The metrics the database layer feeds. */
export type DatabaseMetrics = Pick<Metrics, 'dbQueryDuration' | 'dbPoolAcquire' | 'setSource'>;

/** PostgreSQL when a URL is given, else PGlite in DATA_DIR/pgdata (locked to this process). */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const onError = options.onError ?? ((error: Error) => console.warn(`PostgreSQL connection error: ${error.message}`));
    return openPostgres(options.databaseUrl, { onError, metrics: options.metrics, connectTimeoutMs: options.connectTimeoutMs ?? 5000 });
  }
  const release = lockDataDir(options.dataDir, options.holder);
  try {
    // In its own thread: its queries run beside the server's work, not inside it.
    const client = await PgliteThread.start(path.join(options.dataDir, 'pgdata'));
    if (options.metrics) timeQueries(client, options.metrics);
    const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Db;
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

function openPostgres(url: string, options: { onError: (error: Error) => void; metrics?: DatabaseMetrics; connectTimeoutMs: number }): Database {
  const { onError, metrics } = options;
  // keepAlive: a connection whose network was cut is found dead instead of waiting for ever.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: options.connectTimeoutMs, keepAlive: true });
  if (metrics) measurePool(pool, metrics);
  // An idle client's error (PostgreSQL restarted, the connection was cut) is reported, not thrown:
  // the pool replaces the client at the next query.
  pool.on('error', onError);
  // pool.end() resolves once its clients are asked to end; close() waits until they have.
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    if (metrics) timeQueries(client, metrics);
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

/** Counts how long each query of a client takes (PostgreSQL pool clients, PGlite). Cursors pass untouched. */
function timeQueries(client: { query: unknown }, metrics: DatabaseMetrics): void {
  const query = (client.query as (...args: unknown[]) => unknown).bind(client);
  client.query = (...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | null | undefined;
    if (first && typeof first === 'object' && typeof first.submit === 'function') return query(...args);
    const started = performance.now();
    const elapsed = () => metrics.dbQueryDuration.observe((performance.now() - started) / 1000);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...answer: unknown[]) => {
        elapsed();
        (callback as (...a: unknown[]) => void)(...answer);
      };
      return query(...args);
    }
    const result = query(...args) as Promise<unknown>;
    // Observed on either outcome; the caller still gets the rejection.
    void result.then(elapsed, elapsed);
    return result;
  };
}

/** Counts how long queries wait for a pool connection, and reads the pool's size and queue at scrape time. */
function measurePool(pool: pg.Pool, metrics: DatabaseMetrics): void {
  const connect = pool.connect.bind(pool) as (callback?: (...answer: unknown[]) => void) => unknown;
  // pool.query acquires through this method too (with a callback).
  (pool as { connect: unknown }).connect = (callback?: (...answer: unknown[]) => void) => {
    const started = performance.now();
    const waited = () => metrics.dbPoolAcquire.observe((performance.now() - started) / 1000);
    if (callback) {
      return connect((...answer: unknown[]) => {
        waited();
        callback(...answer);
      });
    }
    const result = connect() as Promise<unknown>;
    void result.then(waited, waited);
    return result;
  };
  metrics.setSource('dbPoolWaiting', () => pool.waitingCount);
  metrics.setSource('dbPoolConnections', () => pool.totalCount);
}

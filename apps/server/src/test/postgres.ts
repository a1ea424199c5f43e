import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';

/** The PostgreSQL server the tests use: TEST_DATABASE_URL, else the machine's on 127.0.0.1:5432. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function canConnect(): Promise<boolean> {
  try {
    await adminQuery('select 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads rows from the database at `url` in a short-lived connection each time: for tests that
 * check what a server process (which holds its own pool) stored.
 */
export function queryRows(url: string): <T>(sql: string, values?: unknown[]) => Promise<T[]> {
  return async <T>(sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as T[];
    } finally {
      await client.end();
    }
  };
}

/** Starts the machine's PostgreSQL cluster when it is installed but not running. */
export async function ensurePostgres(): Promise<void> {
  if (await canConnect()) return;
  if (!process.env.TEST_DATABASE_URL && fs.existsSync('/etc/postgresql')) {
    for (const version of fs.readdirSync('/etc/postgresql')) {
      try {
        execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
      } catch {
        // try the next one, then report below
      }
    }
    for (let i = 0; i < 30; i++) {
      if (await canConnect()) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`PostgreSQL is not reachable at ${ADMIN_URL}; start it or set TEST_DATABASE_URL.`);
}

/** A random database name for this run. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../config.js';
import type { Db } from '../db/client.js';
import { startServer } from '../server.js';
import { startTestServer } from './test-server.js';

/** A database of a running server, for repository tests on both kinds; `stop` ends the server and removes what it made. */
export type TestDatabase = { db: Db; stop: () => Promise<void> };

/** A fresh PostgreSQL database (the test server's). */
export async function onPostgres(): Promise<TestDatabase> {
  const server = await startTestServer();
  return { db: server.deps.db, stop: () => server.stop() };
}

/**
 * The configuration of a test server on the embedded PGlite in `dataDir`: free ports for HTTP
 * and the broker, on loopback, logging nothing; `settings` adds or overrides variables.
 */
export function pgliteTestConfig(dataDir: string, settings: Record<string, string> = {}): Config {
  return loadConfig({ DATA_DIR: dataDir, PORT: '0', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...settings });
}

/** The embedded PGlite in a fresh data directory. */
export async function onPglite(): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-repository-'));
  const server = await startServer(pgliteTestConfig(dataDir));
  return {
    db: server.deps.db,
    stop: async () => {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Both kinds, for `describe.each`. */
export const BOTH_DATABASES: [name: string, open: () => Promise<TestDatabase>][] = [
  ['PostgreSQL', onPostgres],
  ['PGlite', onPglite],
];

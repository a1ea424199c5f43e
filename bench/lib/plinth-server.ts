import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SESSION_COOKIE } from '@plinth/shared';
import { freePort } from '../../apps/server/src/test/free-port.js';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from '../../apps/server/src/test/postgres.js';
import { stopChild } from '../../apps/server/src/test/stop-child.js';
import { rssBytes } from './proc-stats.js';

/** The repository root (bench/lib/../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The built server's entry point. */
export const DIST_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const SOURCE_MAIN = path.join(ROOT, 'apps/server/src/main.ts');

export type ServerMode = 'dist' | 'source';

/**
 * The database the server runs on: `postgres` (production: a fresh database on the local cluster,
 * DATABASE_URL) or `pglite` (the product's default: the embedded database in DATA_DIR/pgdata, no
 * DATABASE_URL).
 */
export type BenchDatabase = 'postgres' | 'pglite';

/** A Plinth server started as a child process on 127.0.0.1, with its own fresh database. */
export type BenchServer = {
  url: string;
  pid: number;
  database: BenchDatabase;
  /** The PostgreSQL database's URL; '' on PGlite (only the server process can open it). */
  databaseUrl: string;
  /** The server's DATA_DIR (removed by `stop`). */
  dataDir: string;
  /** Session cookie header of the platform admin the CLI created. */
  adminCookie: string;
  /** Runs SQL against the benchmark database (one short-lived connection); throws on PGlite, which the server holds alone. */
  query: <T = Record<string, unknown>>(sql: string) => Promise<T[]>;
  /** The server's memory right after a full garbage collection (through bench/lib/memory-probe.mjs). */
  memory: () => Promise<NodeJS.MemoryUsage>;
  /** Waits until the server answers `/readyz` with 200 (its database answers too); throws after `timeoutMs` or if it exits. */
  untilReady: (timeoutMs: number) => Promise<void>;
  /** Last lines of the server's log (stdout and stderr). */
  logTail: (lines?: number) => string;
  /** Stops the server, drops the database and removes the data directory. */
  stop: () => Promise<void>;
};

/** A port nobody listens on right now (the kernel picks it). */
export { freePort };

/** The newest modification time (ms) of the files under a folder matching `keep`. */
function newestMtime(dir: string, keep: (file: string) => boolean): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (keep(file)) newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * Makes sure the built server exists (building it only when it is missing) and warns when its
 * sources are newer than the build: the benchmark then measures old code.
 */
export function checkServerBuild(mode: ServerMode, log: (line: string) => void): void {
  if (mode === 'source') return;
  if (!fs.existsSync(DIST_MAIN)) {
    log('apps/server/dist is missing: building the server (npx tsc -b apps/server)…');
    const res = spawnSync('npx', ['tsc', '-b', 'apps/server'], { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) throw new Error('Building the server failed; run `npm run build` and try again.');
    return;
  }
  const src = newestMtime(path.join(ROOT, 'apps/server/src'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes(`${path.sep}test${path.sep}`));
  const dist = newestMtime(path.join(ROOT, 'apps/server/dist'), (f) => f.endsWith('.js'));
  if (src > dist) {
    log('WARNING: apps/server/src is newer than apps/server/dist. Run `npm run build` first (or pass --from-source).');
  }
}

/** Waits until `url` answers 2xx; throws after `timeoutMs`, or as soon as `child` (the server) exits. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} while starting`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs / 1000} s`);
}

function runCli(mode: ServerMode, args: string[], env: NodeJS.ProcessEnv): void {
  const command =
    mode === 'dist'
      ? ['apps/server/bin/plinth.js', ...args]
      : [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `import { runCli } from './apps/server/src/cli.ts'; process.exitCode = await runCli(${JSON.stringify(args)});`,
        ];
  const res = spawnSync(process.execPath, command, { cwd: ROOT, env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`plinth ${args.slice(0, 2).join(' ')} failed (${res.status}): ${res.stderr}`);
}

const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-Passw0rd!' };

/** A fresh database for one run: its URL ('' for PGlite, which lives in DATA_DIR) and how to drop it. */
async function freshDatabase(database: BenchDatabase, log: (line: string) => void): Promise<{ url: string; label: string; drop: () => Promise<void> }> {
  if (database === 'pglite') return { url: '', label: 'embedded PGlite in DATA_DIR/pgdata', drop: async () => undefined };
  await ensurePostgres();
  const name = uniqueDatabaseName('plinth_bench');
  await adminQuery(`create database ${name}`);
  return {
    url: databaseUrl(name),
    label: `PostgreSQL database ${name}`,
    drop: () => adminQuery(`drop database if exists ${name} with (force)`).then(
      () => undefined,
      (error: unknown) => log(`could not drop ${name}: ${String(error)}`),
    ),
  };
}

/** Another server's database, which that server created and drops. */
function sharedDatabase(url: string): { url: string; label: string; drop: () => Promise<void> } {
  return { url, label: `PostgreSQL database ${new URL(url).pathname.slice(1)} (shared)`, drop: async () => undefined };
}

/** Signs the admin in: the session cookie header. */
async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!res.ok || !session) throw new Error(`signing the admin in failed (${res.status})`);
  return session;
}

/**
 * Starts Plinth as the product runs it (`node apps/server/dist/main.js`, or the sources through
 * tsx), on free ports of 127.0.0.1, with a fresh database: a new PostgreSQL database on the local
 * cluster (`database: 'postgres'`, the default), or the embedded PGlite database in a new DATA_DIR
 * (`'pglite'`: no DATABASE_URL). A platform admin is created with the CLI before the server starts
 * (PGlite admits one process at a time; the CLI migrates the database first), then signed in.
 */
export async function startBenchServer(options: {
  mode: ServerMode;
  log: (line: string) => void;
  database?: BenchDatabase;
  /** A V8 heap limit for the server (--max-old-space-size, MiB); Node's default when absent. */
  heapMib?: number;
  /** The built console to serve (WEB_DIST, e.g. apps/web/dist); none by default. */
  webDist?: string;
  /** Settings over the benchmark's own (e.g. MQTT_URL, REDIS_URL, SECRET_KEY for several nodes); none by default. */
  env?: Record<string, string>;
  /**
   * Another bench server's PostgreSQL database (`databaseUrl`), for a second node of one
   * deployment: neither created nor dropped here, and its admin is not created again, only
   * signed in. A fresh database by default.
   */
  databaseUrl?: string;
}): Promise<BenchServer> {
  const { mode, log } = options;
  const database = options.databaseUrl ? 'postgres' : (options.database ?? 'postgres');
  const db = options.databaseUrl ? sharedDatabase(options.databaseUrl) : await freshDatabase(database, log);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-'));
  const logFile = path.join(dataDir, 'server.log');
  const memoryFile = path.join(dataDir, 'memory.json');
  const logStream = fs.createWriteStream(logFile);
  const [port, mqttPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...benchServerEnv({ port, mqttPort, dataDir, databaseUrl: db.url, webDist: options.webDist }),
    BENCH_MEMORY_FILE: memoryFile,
    ...options.env,
  };
  let child: ChildProcess | null = null;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child) await stopServerProcess(child);
    logStream.end();
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const logTail = (lines = 30) => {
    try {
      return fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };

  try {
    if (!options.databaseUrl) runCli(mode, ['user', 'create', '--email', ADMIN.email, '--password', ADMIN.password, '--first-name', 'Bench', '--last-name', 'Admin', '--platform-admin'], env);
    const heap = options.heapMib ? [`--max-old-space-size=${options.heapMib}`] : [];
    const profile = process.env.BENCH_SERVER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`] : [];
    // Diagnostics (docs/performance.md): node flags for the server, e.g. --heapsnapshot-signal=SIGUSR1.
    const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
    const probe = [...heap, ...profile, ...extra, '--expose-gc', '--import', pathToFileURL(path.join(ROOT, 'bench/lib/memory-probe.mjs')).href];
    const args = mode === 'dist' ? [...probe, DIST_MAIN] : [...probe, '--import', 'tsx', SOURCE_MAIN];
    child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.pipe(logStream, { end: false });
    child.stderr!.pipe(logStream, { end: false });
    const server = child;
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/api/v1/auth/login-methods`, server, 90_000);
    const adminCookie = await signIn(url);
    log(`server pid ${server.pid} on ${url} (${mode === 'dist' ? 'apps/server/dist' : 'sources through tsx'}), ${db.label}`);
    const pg = (await import('pg')).default;
    return {
      url,
      pid: server.pid!,
      database,
      databaseUrl: db.url,
      dataDir,
      adminCookie,
      untilReady: (timeoutMs) => waitForHttp(`${url}/readyz`, server, timeoutMs),
      query: async <T,>(sql: string) => {
        if (!db.url) throw new Error('the embedded PGlite database is open in the server process only; SQL from the benchmark needs --database postgres');
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        try {
          return (await client.query(sql)).rows as T[];
        } finally {
          await client.end();
        }
      },
      memory: async () => {
        fs.rmSync(memoryFile, { force: true });
        server.kill('SIGUSR2');
        for (let i = 0; i < 100 && !fs.existsSync(memoryFile); i++) await new Promise((r) => setTimeout(r, 50));
        return JSON.parse(fs.readFileSync(memoryFile, 'utf8')) as NodeJS.MemoryUsage;
      },
      logTail,
      stop,
    };
  } catch (error) {
    const tail = logTail();
    await stop();
    throw new Error(`${(error as Error).message}${tail ? `\n--- server log ---\n${tail}` : ''}`);
  }
}

/**
 * The environment a benchmark's server runs with: production, free loopback ports, `dataDir`, the
 * database at `databaseUrl` ('' for PGlite in DATA_DIR), quiet logs, and no external service
 * (broker, Redis, SMTP) or built console unless `webDist` names one.
 */
export function benchServerEnv(options: { port: number; mqttPort: number; dataDir: string; databaseUrl: string; webDist?: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(options.mqttPort),
    MQTT_HOST: '127.0.0.1',
    // Empty means unset: PGlite in DATA_DIR.
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    // Stopped by SIGTERM: no load balancer to drain.
    SHUTDOWN_DRAIN_MS: '0',
    WEB_DIST: options.webDist ?? path.join(options.dataDir, 'no-console'),
    MQTT_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
  };
}

/** Stops a benchmark's server process: SIGTERM, SIGKILL after 15 s; answers once it has exited. */
export function stopServerProcess(child: ChildProcess): Promise<void> {
  return stopChild(child, 15_000);
}

/**
 * The server's resident memory (RSS, from /proc) once it has stopped moving, with no collection
 * forced: read every second until five readings in a row lie within 1 MiB, or for `maxS` seconds
 * at most (30 by default); answers the median of the last five readings.
 */
export async function settledRss(server: Pick<BenchServer, 'pid'>, maxS = 30): Promise<number> {
  const readings: number[] = [];
  const started = Date.now();
  for (;;) {
    readings.push(rssBytes(server.pid) ?? Number.NaN);
    const last = readings.slice(-5);
    if (last.length === 5 && (Math.max(...last) - Math.min(...last) < 1024 * 1024 || Date.now() - started >= maxS * 1000)) {
      return last.sort((a, b) => a - b)[2]!;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** On SIGINT or SIGTERM, once: says so, runs `stop` (the benchmark's load processes and server), and exits with 130. */
export function stopOnInterrupt(log: (line: string) => void, stop: () => Promise<unknown>): void {
  const interrupted = () => {
    log('interrupted: stopping');
    void stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
}

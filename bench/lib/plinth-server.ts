import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SESSION_COOKIE } from '@plinth/shared';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from '../../apps/server/src/test/postgres.js';

/** The repository root (bench/lib/../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const DIST_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const SOURCE_MAIN = path.join(ROOT, 'apps/server/src/main.ts');

export type ServerMode = 'dist' | 'source';

/** A Plinth server started as a child process on 127.0.0.1, with its own fresh database. */
export type BenchServer = {
  url: string;
  pid: number;
  databaseUrl: string;
  /** Session cookie header of the platform admin the CLI created. */
  adminCookie: string;
  /** Runs SQL against the benchmark database (one short-lived connection). */
  query: <T = Record<string, unknown>>(sql: string) => Promise<T[]>;
  /** The server's memory right after a full garbage collection (through bench/lib/memory-probe.mjs). */
  memory: () => Promise<NodeJS.MemoryUsage>;
  /** Last lines of the server's log (stdout and stderr). */
  logTail: (lines?: number) => string;
  /** Stops the server, drops the database and removes the data directory. */
  stop: () => Promise<void>;
};

/** A port nobody listens on right now (the kernel picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

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

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
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

/**
 * Starts Plinth as the product runs it (`node apps/server/dist/main.js`, or the sources through
 * tsx), against a new PostgreSQL database on the local cluster, on free ports of 127.0.0.1;
 * creates a platform admin with the CLI and signs it in.
 */
export async function startBenchServer(options: { mode: ServerMode; log: (line: string) => void }): Promise<BenchServer> {
  const { mode, log } = options;
  await ensurePostgres();
  const name = uniqueDatabaseName('plinth_bench');
  await adminQuery(`create database ${name}`);
  const dbUrl = databaseUrl(name);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-bench-'));
  const logFile = path.join(dataDir, 'server.log');
  const memoryFile = path.join(dataDir, 'memory.json');
  const logStream = fs.createWriteStream(logFile);
  const [port, mqttPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(dataDir, 'no-console'),
    MQTT_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
    BENCH_MEMORY_FILE: memoryFile,
  };
  const probe = ['--expose-gc', '--import', pathToFileURL(path.join(ROOT, 'bench/lib/memory-probe.mjs')).href];
  const args = mode === 'dist' ? [...probe, DIST_MAIN] : [...probe, '--import', 'tsx', SOURCE_MAIN];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(logStream, { end: false });
  child.stderr!.pipe(logStream, { end: false });
  const url = `http://127.0.0.1:${port}`;

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    logStream.end();
    await adminQuery(`drop database if exists ${name} with (force)`).catch((error: unknown) => log(`could not drop ${name}: ${String(error)}`));
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
    await waitForHttp(`${url}/api/v1/auth/login-methods`, child, 90_000);
    const email = 'bench-admin@example.com';
    const password = 'Bench-Passw0rd!';
    runCli(mode, ['user', 'create', '--email', email, '--password', password, '--first-name', 'Bench', '--last-name', 'Admin', '--platform-admin'], env);
    const res = await fetch(`${url}/api/v1/auth/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const session = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!res.ok || !session) throw new Error(`signing the admin in failed (${res.status})`);
    log(`server pid ${child.pid} on ${url} (${mode === 'dist' ? 'apps/server/dist' : 'sources through tsx'}), database ${name}`);
    const pg = (await import('pg')).default;
    return {
      url,
      pid: child.pid!,
      databaseUrl: dbUrl,
      adminCookie: session,
      query: async <T,>(sql: string) => {
        const client = new pg.Client({ connectionString: dbUrl });
        await client.connect();
        try {
          return (await client.query(sql)).rows as T[];
        } finally {
          await client.end();
        }
      },
      memory: async () => {
        fs.rmSync(memoryFile, { force: true });
        child.kill('SIGUSR2');
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

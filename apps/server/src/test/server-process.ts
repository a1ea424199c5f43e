import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../cli.js';

/** A Plinth server in its own process (`node --import tsx src/main.ts`), for tests that kill it. */
export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output: () => string;
  /** Sends `signal` and waits for the process to be gone. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
};

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(SERVER_DIR, 'src/main.ts');

/**
 * Starts the server as `npm start` would, configured only by `env` (with ephemeral ports, on
 * loopback), and answers once it printed that it is ready. Its `.env` is not read (cwd is DATA_DIR).
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const dataDir = env.DATA_DIR;
  if (!dataDir) throw new Error('startServerProcess: DATA_DIR is required');
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', MQTT_HOST: '127.0.0.1', WEB_DIST: '/nonexistent', SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server process did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      const ready = /ready at https?:\/\/[^:/]+:(\d+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server process exited (${code}) before it was ready:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Creates a platform admin in the database at `databaseUrl` with the command line, as an operator
 * does before the first sign-in; throws unless `plinth user create` exits 0.
 */
export async function createPlatformAdminByCli(databaseUrl: string, admin: { email: string; password: string }): Promise<void> {
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  try {
    const code = await runCli(['user', 'create', '--email', admin.email, '--password', admin.password, '--platform-admin'], { write: () => true }, { write: () => true });
    if (code !== 0) throw new Error(`plinth user create exited ${code}`);
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}


/**
 * A real Plinth for test suites that are not written in TypeScript (the Python SDK's pytest
 * suite): a fresh PostgreSQL database, the server in its own process on a free port, and a
 * platform admin made with the command line. Run with `node --import tsx` from the repository:
 *
 *   node --import tsx apps/server/src/test/server-launcher.ts
 *
 * It prints one JSON line `{"url", "email", "password"}` once the server is ready, then reads one
 * command per line on stdin and answers one line each:
 *   stop   → stops the server (SIGTERM) and answers `stopped` (the database stays)
 *   start  → starts it again on the same port and answers `started`
 * End of stdin (or SIGTERM) stops the server, drops the database and exits.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { runCli } from '../cli.js';
import { freePort } from './free-port.js';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from './postgres.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const ADMIN = { email: 'admin@plinth.test', password: 'Adm1nPassword' };

async function main(): Promise<void> {
  await ensurePostgres();
  const name = uniqueDatabaseName('plinth_py');
  await adminQuery(`create database ${name}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-launcher-'));
  const env = {
    PORT: String(await freePort()),
    DATABASE_URL: databaseUrl(name),
    DATA_DIR: dataDir,
    // startServerProcess waits for the 'ready at' line, logged at info.
    LOG_LEVEL: 'info',
    MAIL_TRANSPORT: 'log',
    THROTTLE_ACCOUNT_FAILURES: '1000',
    THROTTLE_IP_FAILURES: '1000',
  };
  let server: ServerProcess | null = null;
  const cleanUp = async () => {
    await server?.kill('SIGTERM');
    server = null;
    await adminQuery(`drop database if exists ${name} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    server = await startServerProcess(env);
    Object.assign(process.env, env);
    const code = await runCli(['user', 'create', '--email', ADMIN.email, '--password', ADMIN.password, '--first-name', 'Ada', '--last-name', 'Admin', '--platform-admin'], process.stderr);
    if (code !== 0) throw new Error(`creating the admin failed (${code})`);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  process.stdout.write(`${JSON.stringify({ url: server.url, ...ADMIN })}\n`);

  let done = false;
  const finish = async () => {
    if (done) return;
    done = true;
    await cleanUp();
    process.exit(0);
  };
  process.on('SIGTERM', () => void finish());
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('close', () => void finish());
  for await (const line of lines) {
    const command = line.trim();
    if (command === 'stop') {
      await server?.kill('SIGTERM');
      server = null;
      process.stdout.write('stopped\n');
    } else if (command === 'start') {
      server ??= await startServerProcess(env);
      process.stdout.write('started\n');
    } else if (command) {
      process.stdout.write(`unknown command ${command}\n`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

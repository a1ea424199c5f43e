import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/**
 * A PostgreSQL cluster of the test's own (Debian's binaries, a temporary folder, a free port), for
 * fault tests that stop and restart the database without touching the machine's shared one.
 * PostgreSQL refuses to run as root: as root it runs as the `postgres` user (runuser).
 */
export type PrivateCluster = {
  /** The `postgres` database of the cluster, as the superuser. */
  url: string;
  /** Stops the cluster (fast shutdown: sessions are ended), waits `downMs`, and starts it again on the same port. */
  restart: (downMs: number) => Promise<{ stoppedAt: number; startedAt: number }>;
  stop: () => void;
};

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(root, v, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  return found;
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : path.join(bin, tool), asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args, { stdio: 'pipe', cwd: os.tmpdir() });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const start = () =>
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  const stopNow = (mode: 'fast' | 'immediate') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async (downMs) => {
      stopNow('fast');
      const stoppedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      start();
      return { stoppedAt, startedAt: Date.now() };
    },
    stop: () => {
      try {
        stopNow('immediate');
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

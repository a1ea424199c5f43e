import type { ChildProcess } from 'node:child_process';
import { createApiClient } from './api-client.js';
import type { BenchServer } from './plinth-server.js';

/**
 * Asks each load process to close (its `close` message), waits for it to exit, and kills the
 * ones still running after `graceMs`.
 */
export async function stopLoadProcesses(children: ChildProcess[], closeMessage: object, graceMs: number): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      if (child.connected) child.send(closeMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }),
  );
}

/** How many exhibits or boards the server has stored as online. */
export async function onlineCount(server: BenchServer, table: 'exhibits' | 'hardware'): Promise<number> {
  // PGlite is open in the server process only: there the platform admin's exhibit list answers.
  if (server.database === 'pglite' && table === 'exhibits') {
    const { exhibits } = await createApiClient(server.url, server.adminCookie)<{ exhibits: { online: boolean }[] }>('GET', '/exhibit-management/exhibit');
    return exhibits.filter((exhibit) => exhibit.online).length;
  }
  const [row] = await server.query<{ n: string }>(`select count(*) as n from ${table} where online`);
  return Number(row?.n ?? 0);
}

/**
 * PostgreSQL backend processes serving the benchmark database (their CPU is the server's database
 * work). None on PGlite: the embedded database runs inside the server process, in its CPU figure.
 */
export async function databasePids(server: BenchServer): Promise<number[]> {
  if (server.database === 'pglite') return [];
  const name = new URL(server.databaseUrl).pathname.slice(1);
  const rows = await server.query<{ pid: number }>(`select pid from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
  return rows.map((r) => r.pid);
}

/**
 * Opens one connection per item, `atOnce` at a time (a load process's connect step); answers the
 * connections opened, in no particular order, how many failed, and the first five distinct errors.
 */
export async function openEach<T, C>(items: T[], atOnce: number, open: (item: T) => Promise<C>): Promise<{ opened: C[]; failed: number; errors: string[] }> {
  const opened: C[] = [];
  const errors = new Set<string>();
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        opened.push(await open(item));
      } catch (error) {
        failed += 1;
        errors.add((error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  return { opened, failed, errors: [...errors].slice(0, 5) };
}

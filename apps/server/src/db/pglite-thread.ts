import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { fromWireError, toWireOptions, type WireAnswer, type WireRequest } from './pglite-wire.js';

/** Run from its TypeScript source (the tests, through tsx) rather than the build: the thread and the process it starts load TypeScript too. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };
type Request = WireRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** What drizzle's PGlite driver uses of a PGlite client (and of its transactions). */
export type PgliteQueries = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
};

/**
 * The thread's young generation, where its short-lived objects (each query's message and
 * results) are allocated. V8's default lets it grow under load to 32 MiB committed on Node 20
 * and 128 MiB on Node 24, resident in the server's process for objects that live a few
 * milliseconds; with 12 MiB it stays at 8 MiB on both (docs/performance.md, "V8's heap growth").
 */
export const PGLITE_THREAD_LIMITS = { maxYoungGenerationSizeMb: 12 } as const;

/**
 * PGlite in its own worker thread (db/pglite-worker.ts), behind the part of PGlite's interface
 * drizzle uses: `query`, `exec` and `transaction`. The embedded database's work (a batch of
 * writes, a report's scan) then runs beside the server's thread, not inside it (issue 22).
 * Queries queue in PGlite's own order, as they would in this thread; a transaction keeps the
 * database to itself until it ends, as PGlite's does.
 */
export class PgliteThread implements PgliteQueries {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (answer: WireAnswer) => this.settle(answer));
    worker.on('error', (error) => this.stop(new Error(`The embedded database's thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.stop(new Error(`The embedded database's thread stopped (exit code ${code}).`)));
  }

  /**
   * Starts the thread and opens the data directory there. A directory without a database first
   * gets one from a process of its own (`createDatabase`).
   */
  static async start(dataDir: string): Promise<PgliteThread> {
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await createDatabase(dataDir);
    const entry = new URL(`./pglite-worker.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);
    const options = { workerData: { dataDir }, resourceLimits: PGLITE_THREAD_LIMITS };
    // From source (the tests), the worker first registers tsx to load TypeScript.
    const worker = FROM_SOURCE
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`, { ...options, eval: true })
      : new Worker(entry, { ...options, execArgv: [] });
    const thread = new PgliteThread(worker);
    // The worker answers id 0 once PGlite is open (or could not be).
    await new Promise((resolve, reject) => thread.pending.set(0, { resolve, reject })).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    return thread;
  }

  /** The limits V8 runs the thread with, as the thread reports them (`PGLITE_THREAD_LIMITS`). */
  resourceLimits(): ResourceLimits {
    return this.worker.resourceLimits ?? {};
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.queriesIn(undefined).query<T>(sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.queriesIn(undefined).exec(sql);
  }

  /** Runs `callback` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: PgliteQueries) => Promise<T>): Promise<T> {
    // The transaction is named by the id of its `begin` request.
    const tx = this.nextId;
    await this.request({ op: 'begin' });
    let result: T;
    try {
      result = await callback(this.queriesIn(tx));
    } catch (error) {
      await this.request({ op: 'end', tx, commit: false });
      throw error;
    }
    await this.request({ op: 'end', tx, commit: true });
    return result;
  }

  /** Closes PGlite (its data written) and ends the thread. */
  async close(): Promise<void> {
    if (!this.stopped) await this.request({ op: 'close' });
    await this.worker.terminate();
  }

  /** Queries outside any transaction (`tx` undefined) or inside the open transaction `tx`. */
  private queriesIn(tx: number | undefined): PgliteQueries {
    return {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) =>
        this.request({ op: 'query', sql, params, options: toWireOptions(options), tx }) as Promise<Results<R>>,
      exec: (sql: string) => this.request({ op: 'exec', sql, tx }) as Promise<Results[]>,
    };
  }

  private request(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ ...request, id } as WireRequest);
      } catch (error) {
        this.pending.delete(id);
        reject(error as Error);
        return;
      }
      // Like PGlite in this thread, the thread keeps the process alive only while it owes answers.
      if (this.pending.size === 1) this.worker.ref();
    });
  }

  private settle(answer: WireAnswer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in answer) pending.reject(fromWireError(answer.error));
    else pending.resolve(answer.result);
  }

  /** The thread is gone: every waiting and later query fails with why. */
  private stop(error: Error): void {
    this.stopped ??= error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

const execFileAsync = promisify(execFile);

/**
 * Makes the database in `dataDir` (PostgreSQL's initdb) in a process of its own
 * (db/pglite-create.ts) that then ends. Made in the server's process, it would cost that process
 * for its whole life: initdb leaves about 600 MiB more resident, PGlite's WebAssembly memory
 * (which never shrinks) among it, so a server's first start held about 780 MiB, against 280–310
 * MiB now (docs/performance.md, "The first start's memory").
 */
export async function createDatabase(dataDir: string): Promise<void> {
  const entry = fileURLToPath(new URL(`./pglite-create.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));
  // From source (the tests), through tsx to load TypeScript.
  const args = FROM_SOURCE ? ['--import', 'tsx', entry, dataDir] : [entry, dataDir];
  try {
    await execFileAsync(process.execPath, args, { encoding: 'utf8' });
  } catch (error) {
    const said = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1);
    throw new Error(`The embedded database could not be created in ${dataDir}: ${said || (error as Error).message}`);
  }
}

import { openPglite } from './pglite-open.js';

/**
 * Makes the embedded database in the directory named by its argument (PostgreSQL's initdb),
 * closes it and ends. db/pglite-thread.ts runs it as a process of its own when the data
 * directory has no database yet: initdb leaves about 600 MiB more resident in the process that
 * ran it, PGlite's WebAssembly memory (which never shrinks) among it, still held after PGlite
 * closes; only the process's end gives it all back. A failure is written to stderr as one line,
 * for the server to report.
 */
const dataDir = process.argv[2];
try {
  if (!dataDir) throw new Error('usage: pglite-create <data directory>');
  const db = await openPglite(dataDir);
  await db.close();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

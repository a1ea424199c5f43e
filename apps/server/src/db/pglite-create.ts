import { openPglite } from './pglite-open.js';

/**
 * Makes the embedded database in the directory named by its argument (PostgreSQL's initdb),
 * closes it and ends. db/pglite-thread.ts runs it as a process of its own when the data
 * directory has no database yet: initdb grows PGlite's WebAssembly memory to about 600 MiB,
 * WebAssembly memory never shrinks, and only a process's end gives all of it back. A failure
 * is written to stderr as one line, for the server to report.
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

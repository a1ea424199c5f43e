import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's page cache inside PGlite's WebAssembly memory. PostgreSQL's default, 128 MB, is
 * touched from the start and filled as the database grows, all of it resident in the server's
 * process; pages past a smaller cache are read from the data directory's files, which the
 * operating system caches outside the process (docs/performance.md, Hardware boards: memory).
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/** PGlite open on `dataDir` with the server's settings; a directory without a database gets one. */
export function openPglite(dataDir: string): Promise<PGlite> {
  return PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] });
}

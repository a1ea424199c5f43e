import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/** Lock files this process holds, so a second open in the same process is refused too. */
const heldHere = new Set<string>();

/**
 * Only one process may hold an embedded (PGlite) data directory. Takes DATA_DIR/plinth.lock with
 * our pid; a lock left by a dead process is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string, holder: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'plinth.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, holder }), { flag: 'wx' });
      heldHere.add(file);
      return () => {
        heldHere.delete(file);
        try {
          const current = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number };
          if (current.pid === process.pid) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const other = readLock(file);
      const heldByUs = other?.pid === process.pid && heldHere.has(file);
      if (other && (heldByUs || (other.pid !== process.pid && isAlive(other.pid)))) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by a running Plinth ${other.holder ?? 'process'} (pid ${other.pid}). ` +
            'With the embedded database only one process may use it: stop the server first, or use DATABASE_URL.',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

function readLock(file: string): { pid: number; holder?: string } | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; holder?: string };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

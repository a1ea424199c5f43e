import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../../config.js';
import { openDatabase, type Database } from '../../db/client.js';
import { DataDirLockedError } from '../../db/lock.js';
import { loadDotEnv } from '../../lib/dotenv.js';
import { createFileStore } from '../../lib/file-store.js';
import { restoreBackup, writeBackup, type BackupSummary } from './backup.service.js';
import { requestBackup } from './control-socket.js';

export const BACKUP_USAGE = `  plinth backup <file>            one archive of the database, the stored files and the secrets key, taken while the server runs
  plinth restore <file> [--force] into an empty data folder or database (--force replaces what is there); stop the server first`;

type Output = { write: (text: string) => unknown };
type Io = { out: Output; err: Output };

/** `plinth backup <file>` and `plinth restore <file> [--force]`; answers the exit code. */
export async function runBackupCli(action: 'backup' | 'restore', args: string[], io: Io): Promise<number> {
  let values: { force?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: { force: { type: 'boolean', default: false } }, allowPositionals: true, strict: true }));
  } catch (error) {
    io.err.write(`plinth: ${(error as Error).message}\n`);
    return 2;
  }
  if (positionals.length !== 1 || (action === 'backup' && values.force)) {
    io.err.write(`plinth: give exactly one archive file\nUsage:\n${BACKUP_USAGE}\n`);
    return 2;
  }
  const file = path.resolve(positionals[0]!);
  loadDotEnv();
  const config = loadConfig();
  const step = (text: string) => io.out.write(`${text}…\n`);
  if (action === 'backup') {
    if (fs.existsSync(file)) {
      io.err.write(`plinth: ${file} already exists: choose a new file name (a backup never overwrites one).\n`);
      return 1;
    }
    const summary = await backUp(config, file, step);
    io.out.write(`${describe(summary)}\n`);
    return 0;
  }
  const database = await openForRestore(config);
  try {
    await database.migrate();
    const target = { db: database.db, kind: database.kind, files: await createFileStore(config.fileStore), config };
    const restored = await restoreBackup(target, { file, force: values.force === true }, step);
    const made = `made ${restored.manifest.createdAt} by Plinth ${restored.manifest.plinthVersion} on ${restored.manifest.database.kind}`;
    io.out.write(`Restored ${restored.rows} rows in ${restored.tables} tables and ${plural(restored.files, 'stored file')} from ${file} (${made}).\n`);
    io.out.write(`${SECRET_KEY_NOTES[restored.secretKey](config)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

const SECRET_KEY_NOTES: Record<'restored' | 'matches SECRET_KEY' | 'differs from SECRET_KEY' | 'none', (config: Config) => string> = {
  restored: (config) => `The secrets key is in ${path.join(config.dataDir, 'secret.key')}.`,
  'matches SECRET_KEY': () => 'SECRET_KEY matches the backup’s secrets key.',
  'differs from SECRET_KEY': () =>
    'Warning: SECRET_KEY differs from the backup’s secrets key: the stored passwords of external services cannot be read. Set SECRET_KEY to the key in the archive (secret.key).',
  none: () => 'The backup holds no secrets key (nothing was encrypted).',
};

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function describe(summary: BackupSummary): string {
  return (
    `Backup written to ${summary.file}: ${summary.rows} rows in ${summary.tables} tables, ${plural(summary.files, 'stored file')} (${summary.bytes} bytes)` +
    `${summary.secretKey ? ' and the secrets key' : ''}. Keep it somewhere safe: it holds every password hash and token of this Plinth.`
  );
}

/** With the embedded database in use by a running server, the server writes the archive; otherwise this process does. */
async function backUp(config: Config, file: string, step: (text: string) => void): Promise<BackupSummary> {
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, holder: 'backup' });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    step('The server is running: asking it to write the backup');
    return requestBackup(config.dataDir, file, step);
  }
  try {
    return await writeBackup({ db: database.db, kind: database.kind, files: await createFileStore(config.fileStore), config }, file, step);
  } finally {
    await database.close();
  }
}

async function openForRestore(config: Config): Promise<Database> {
  try {
    return await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, holder: 'restore' });
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new DataDirLockedError(`${error.message} A restore replaces the data: stop the server first.`);
    throw error;
  }
}

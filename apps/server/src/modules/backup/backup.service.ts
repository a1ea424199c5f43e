import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Db } from '../../db/client.js';
import type { Config } from '../../config.js';
import type { FileStore } from '../../lib/file-store.js';
import { parseSecretKey } from '../../lib/secret-box.js';
import { SECRET_KEY_FILE } from '../../lib/secret-key.js';
import { firmwareKey } from '../hardware-runtime/firmware-store.js';
import {
  BACKUP_FORMAT,
  createArchiveWriter,
  hashOf,
  MANIFEST_ENTRY,
  readAll,
  readArchive,
  SECRET_KEY_ENTRY,
  sha256Of,
  type BackupManifest,
  type FileEntry,
  type TableChunk,
} from './backup-archive.js';
import { countUsers, latestMigration, listStoredObjects, listTables, readSnapshot, replaceAll, type TableInfo } from './backup.repository.js';

const PLINTH_VERSION = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;

/** Rows per chunk entry of the archive (a table's rows are read and written this many at a time). */
const CHUNK_ROWS = 2000;
/** Rows per insert statement of a restore. */
const INSERT_ROWS = 500;

/** What a backup reads: the database, the file store and the secrets key of one Plinth. */
export type BackupSource = {
  db: Db;
  kind: 'postgres' | 'pglite';
  files: FileStore;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
};

export type BackupSummary = { file: string; tables: number; rows: number; files: number; bytes: number; secretKey: boolean; createdAt: string };

/** Reports the steps of a long backup or restore ('Reading the database…'). */
export type Progress = (step: string) => void;

/**
 * The secrets key as text, as it would be read at start: SECRET_KEY, else DATA_DIR/secret.key;
 * null when neither exists yet (nothing was encrypted).
 */
function secretKeyText(config: BackupSource['config']): string | null {
  if (config.secretKey) return `${config.secretKey.toString('base64')}\n`;
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/**
 * Writes one archive of a running (or stopped) Plinth to `file`: every table in one consistent
 * snapshot, then the stored files that snapshot names, then the secrets key.
 */
export async function writeBackup(source: BackupSource, file: string, progress: Progress = () => undefined): Promise<BackupSummary> {
  const createdAt = new Date().toISOString();
  const writer = createArchiveWriter(file);
  try {
    const tables = await listTables(source.db);
    const migration = await latestMigration(source.db);
    const chunks: TableChunk[] = [];
    progress(`Reading ${tables.length} tables in one snapshot`);
    const pending = new Map<string, string[]>();
    const flush = async (table: TableInfo) => {
      const rows = pending.get(table.name) ?? [];
      if (rows.length === 0) return;
      pending.set(table.name, []);
      const entry = `db/${String(chunks.length).padStart(5, '0')}-${table.name}.ndjson`;
      const sha256 = await writer.addBuffer(entry, Buffer.from(`${rows.join('\n')}\n`));
      chunks.push({ entry, table: table.name, rows: rows.length, sha256 });
    };
    let current: TableInfo | null = null;
    const stored = await readSnapshot(source.db, { tables, batch: CHUNK_ROWS, inSnapshot: listStoredObjects }, async (table, rows) => {
      if (current && current.name !== table.name) await flush(current);
      current = table;
      pending.set(table.name, [...(pending.get(table.name) ?? []), ...rows]);
      // A table that references itself goes in with one statement, so its rows stay in one chunk.
      if (!table.isSelfReferencing && (pending.get(table.name)?.length ?? 0) >= CHUNK_ROWS) await flush(table);
    });
    if (current) await flush(current);

    const objects = [
      ...stored.objects,
      ...stored.firmware.map((f) => ({ key: firmwareKey(f.hardwareId, f.fileName), contentType: 'application/octet-stream' })),
    ];
    progress(`Copying ${objects.length} stored files`);
    const files: FileEntry[] = [];
    for (const object of objects) {
      const stat = await source.files.stat(object.key);
      // A file removed since the snapshot was read is left out (its row is gone too by now).
      if (!stat) continue;
      const entry = `files/${String(files.length).padStart(6, '0')}`;
      const sha256 = await writer.addStream(entry, stat.size, await source.files.get(object.key));
      files.push({ entry, key: object.key, size: stat.size, sha256, contentType: object.contentType });
    }

    const key = secretKeyText(source.config);
    const secretKey = key === null ? null : { entry: SECRET_KEY_ENTRY, sha256: await writer.addBuffer(SECRET_KEY_ENTRY, Buffer.from(key)) };
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt,
      plinthVersion: PLINTH_VERSION,
      database: { kind: source.kind, ...migration },
      chunks,
      files,
      secretKey,
    };
    await writer.finish(manifest);
    return {
      file,
      tables: new Set(chunks.map((c) => c.table)).size,
      rows: chunks.reduce((n, c) => n + c.rows, 0),
      files: files.length,
      bytes: files.reduce((n, f) => n + f.size, 0),
      secretKey: secretKey !== null,
      createdAt,
    };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** A backup or restore refused, with a message for the person: a damaged archive, another format or database version, a non-empty target, a server that does not answer. */
export class BackupError extends Error {}

/**
 * Reads the whole archive once and checks every entry against its manifest: a damaged or
 * truncated archive is refused before anything is changed.
 */
export async function verifyArchive(file: string): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const seen = new Map<string, string>();
  let manifest: BackupManifest | null = null;
  try {
    await readArchive(file, async (name, content) => {
      if (name === MANIFEST_ENTRY) manifest = JSON.parse((await readAll(content)).toString('utf8')) as BackupManifest;
      else seen.set(name, (await hashOf(content)).sha256);
    });
  } catch (error) {
    throw new BackupError(`${file} is not a readable Plinth backup (${(error as Error).message}).`);
  }
  const found = manifest as BackupManifest | null;
  if (!found) throw new BackupError(`${file} is not a complete Plinth backup: it has no ${MANIFEST_ENTRY} (was the backup interrupted?).`);
  if (found.format !== BACKUP_FORMAT) throw new BackupError(`${file} is a backup of format ${found.format}; this Plinth reads format ${BACKUP_FORMAT}.`);
  const expected = [...found.chunks, ...found.files, ...(found.secretKey ? [found.secretKey] : [])];
  for (const { entry, sha256 } of expected) {
    if (seen.get(entry) !== sha256) throw new BackupError(`${file} is damaged: ${entry} ${seen.has(entry) ? 'does not match its checksum' : 'is missing'}. Nothing was restored.`);
  }
  return found;
}

/** Where a restore writes: the database (migrated), the file store and the data folder of this Plinth. */
export type RestoreTarget = BackupSource;

export type RestoreSummary = { tables: number; rows: number; files: number; secretKey: 'restored' | 'matches SECRET_KEY' | 'differs from SECRET_KEY' | 'none'; manifest: BackupManifest };

/**
 * Restores a verified archive into `target`, which must be empty (no user) unless `force`: the
 * database in one transaction, then the files, then the secrets key.
 */
export async function restoreBackup(target: RestoreTarget, input: { file: string; force: boolean }, progress: Progress = () => undefined): Promise<RestoreSummary> {
  progress(`Checking ${input.file}`);
  const manifest = await verifyArchive(input.file);
  const here = await latestMigration(target.db);
  if (manifest.database.migration !== here.migration) {
    throw new BackupError(
      `The backup was made by a Plinth at database migration ${manifest.database.migrations}; this Plinth is at ${here.migrations}. ` +
        'Restore it with the Plinth version that made it (' + manifest.plinthVersion + '), then upgrade.',
    );
  }
  const users = await countUsers(target.db);
  if (users > 0 && !input.force) {
    throw new BackupError(
      `The target already holds data (${users} user${users === 1 ? '' : 's'}). Restore into an empty data folder or database, or add --force to replace everything in it.`,
    );
  }

  const tables = await listTables(target.db);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const chunkOf = new Map(manifest.chunks.map((c) => [c.entry, c]));
  progress(`Restoring ${manifest.chunks.reduce((n, c) => n + c.rows, 0)} rows`);
  await replaceAll(target.db, tables, (writer) =>
    readArchive(input.file, async (name, content) => {
      const chunk = chunkOf.get(name);
      if (!chunk) return;
      const table = byName.get(chunk.table);
      if (!table) throw new BackupError(`The backup has a table this Plinth does not know: ${chunk.table}.`);
      const rows = (await readAll(content)).toString('utf8').split('\n').filter(Boolean);
      const step = table.isSelfReferencing ? rows.length : INSERT_ROWS;
      for (let i = 0; i < rows.length; i += step) await writer.insert(table, rows.slice(i, i + step));
    }),
  );

  progress(`Restoring ${manifest.files.length} stored files`);
  const fileOf = new Map(manifest.files.map((f) => [f.entry, f]));
  await readArchive(input.file, async (name, content) => {
    const entry = fileOf.get(name);
    if (entry) await target.files.put(entry.key, content, { contentType: entry.contentType });
  });

  const secretKey = await restoreSecretKey(target, input.file, manifest);
  return { tables: new Set(manifest.chunks.map((c) => c.table)).size, rows: manifest.chunks.reduce((n, c) => n + c.rows, 0), files: manifest.files.length, secretKey, manifest };
}

/**
 * The archive's secrets key goes to DATA_DIR/secret.key (a different key there is kept beside it
 * as secret.key.before-restore); with SECRET_KEY set, it is only compared.
 */
async function restoreSecretKey(target: RestoreTarget, file: string, manifest: BackupManifest): Promise<RestoreSummary['secretKey']> {
  if (!manifest.secretKey) return 'none';
  let text = '';
  await readArchive(file, async (name, content) => {
    if (name === SECRET_KEY_ENTRY) text = (await readAll(content)).toString('utf8');
  });
  if (sha256Of(text) !== manifest.secretKey.sha256) throw new BackupError(`${file} changed while it was restored.`);
  if (target.config.secretKey) {
    return parseSecretKey(text)?.equals(target.config.secretKey) ? 'matches SECRET_KEY' : 'differs from SECRET_KEY';
  }
  const keyFile = path.join(target.config.dataDir, SECRET_KEY_FILE);
  await fs.promises.mkdir(target.config.dataDir, { recursive: true });
  if (fs.existsSync(keyFile) && fs.readFileSync(keyFile, 'utf8') !== text) await fs.promises.rename(keyFile, `${keyFile}.before-restore`);
  await fs.promises.writeFile(keyFile, text, { mode: 0o600 });
  return 'restored';
}

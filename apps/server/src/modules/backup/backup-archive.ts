import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';

/**
 * A Plinth backup is a gzipped tar: the database tables as JSON lines in chunks
 * (`db/<nnnn>-<table>.ndjson`, written in an order that inserts cleanly), the stored files
 * (`files/<nnnnn>`), the secrets key (`secret.key`) and, last, `plinth-backup.json`: the format,
 * the database's migration and every entry with its SHA-256. A restore checks every entry against
 * it before it changes anything.
 */
export const BACKUP_FORMAT = 1;
export const MANIFEST_ENTRY = 'plinth-backup.json';
export const SECRET_KEY_ENTRY = 'secret.key';

export type TableChunk = { entry: string; table: string; rows: number; sha256: string };
export type FileEntry = { entry: string; key: string; size: number; sha256: string; contentType?: string };

export type BackupManifest = {
  format: number;
  createdAt: string;
  /** The Plinth that wrote it (apps/server package version). */
  plinthVersion: string;
  database: { kind: 'postgres' | 'pglite'; migration: string; migrations: number };
  /** In the order they are restored. */
  chunks: TableChunk[];
  files: FileEntry[];
  secretKey: { entry: string; sha256: string } | null;
};

export const sha256Of = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Counts and hashes what passes through. */
class Hasher extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.hash.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }
}

export type ArchiveWriter = {
  /** Adds an entry held in memory; answers its SHA-256. */
  addBuffer: (name: string, bytes: Buffer) => Promise<string>;
  /** Adds an entry of `size` bytes read from `content`; answers its SHA-256. */
  addStream: (name: string, size: number, content: Readable) => Promise<string>;
  /** Adds the manifest, closes the archive and moves it into place. */
  finish: (manifest: BackupManifest) => Promise<void>;
  /** Removes the partial archive (the backup failed). */
  abort: () => Promise<void>;
};

/**
 * Writes an archive to `file`, through `<file>.partial` renamed at the end: a backup that fails
 * or is interrupted never leaves a file that looks complete.
 */
export function createArchiveWriter(file: string): ArchiveWriter {
  const partial = `${file}.partial`;
  const pack = tar.pack();
  const written = pipeline(pack, zlib.createGzip({ level: 6 }), fs.createWriteStream(partial, { mode: 0o600 }));
  // The pipeline's failure surfaces through finish (or the entry being written); never unhandled.
  written.catch(() => undefined);

  const addStream = (name: string, size: number, content: Readable) =>
    new Promise<string>((resolve, reject) => {
      const hasher = new Hasher();
      const entry = pack.entry({ name, size, mode: 0o600 }, (error) => (error ? reject(error) : resolve(hasher.hash.digest('hex'))));
      pipeline(content, hasher, entry).catch(reject);
    });

  return {
    addBuffer: (name, bytes) => addStream(name, bytes.length, Readable.from([bytes])),
    addStream,
    finish: async (manifest) => {
      const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      await addStream(MANIFEST_ENTRY, bytes.length, Readable.from([bytes]));
      pack.finalize();
      await written;
      await fs.promises.rename(partial, file);
    },
    abort: async () => {
      pack.destroy();
      await written.catch(() => undefined);
      await fs.promises.rm(partial, { force: true });
    },
  };
}

/**
 * Reads every entry of an archive in order: `onEntry` gets its name and its bytes as a stream
 * (which it must read to the end, or drain).
 */
export async function readArchive(file: string, onEntry: (name: string, content: Readable) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  const done = pipeline(fs.createReadStream(file), zlib.createGunzip(), extract);
  // A damaged file fails both the pipeline and the iteration: the first failure is reported, once.
  const failed = done.then(
    () => null,
    (error: unknown) => error,
  );
  try {
    for await (const entry of extract) {
      const content = new PassThrough();
      const forwarded = pipeline(entry, content);
      // A damaged archive fails this entry's stream too: the failure is reported once, below.
      forwarded.catch(() => undefined);
      await onEntry(entry.header.name, content);
      content.resume();
      await forwarded;
    }
  } catch (error) {
    throw (await failed) ?? error;
  }
  const error = await failed;
  if (error) throw error;
}

/** The bytes of a stream. */
export async function readAll(content: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The SHA-256 of a stream, read to its end. */
export async function hashOf(content: Readable): Promise<{ sha256: string; size: number }> {
  const hasher = new Hasher();
  await pipeline(content, hasher, new PassThrough().resume());
  return { sha256: hasher.hash.digest('hex'), size: hasher.size };
}

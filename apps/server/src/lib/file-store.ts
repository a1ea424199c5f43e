import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from './app-error.js';

/**
 * The one seam in front of stored files (exhibit files, firmware): local disk under DATA_DIR by
 * default, an S3-compatible object store by configuration (FILE_STORE_URL), so that several
 * server nodes share the files. Content always streams; nothing holds a whole file in memory.
 *
 * Keys are `/`-separated paths of safe segments (`files/<exhibitId>/<uuid>`); callers build them
 * from ids, never from user text.
 */
export type FileStore = {
  /** Where files are kept, for logs and docs ("local disk /data/store", "s3://bucket/prefix"). */
  readonly description: string;
  /**
   * Streams `content` to `key` and answers its size and SHA-256 once the whole object is stored.
   * Over `maxBytes`, or when the stream fails, it rejects (PayloadTooLarge for the limit) and
   * leaves nothing behind under `key`: a previous object there stays as it was.
   */
  put: (key: string, content: Readable, options?: PutOptions) => Promise<StoredObject>;
  /** The object's bytes (all, or `range`, both ends inclusive); rejects NotFound when absent. */
  get: (key: string, range?: ByteRange) => Promise<Readable>;
  /** Size of the object, or null when it is not there. */
  stat: (key: string) => Promise<{ size: number } | null>;
  /** Removes the object; no error when it is already gone. */
  remove: (key: string) => Promise<void>;
  /** Removes every object under `prefix` (which ends with '/'). */
  removePrefix: (prefix: string) => Promise<void>;
};

export type PutOptions = { maxBytes?: number; contentType?: string };
export type StoredObject = { size: number; sha256: string };
/** A byte range, both ends inclusive (as HTTP Range). */
export type ByteRange = { start: number; end: number };

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Refuses a key that is not a path of safe segments (no '..', no empty segment). */
export function checkStoreKey(key: string): string {
  const segments = key.split('/');
  if (!segments.every((s) => SEGMENT.test(s) && s !== '..')) throw new Error(`Not a file store key: ${key}`);
  return key;
}

/** The key prefix `removePrefix` takes: safe segments ending with '/'. */
export function checkStorePrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new Error(`Not a file store prefix: ${prefix}`);
  checkStoreKey(prefix.slice(0, -1));
  return prefix;
}

/** The error a store answers when an upload passes its limit. */
export function tooLarge(maxBytes: number): AppError {
  return new AppError('PayloadTooLarge', `The file is larger than the limit of ${formatLimit(maxBytes)}.`);
}

function formatLimit(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit += 1;
  }
  return `${value} ${units[unit]}`;
}

/**
 * A pass-through that counts and hashes what flows, and fails with PayloadTooLarge past
 * `maxBytes`. Also honours a multipart stream's own `truncated` flag (its limit was reached).
 */
export function createMeter(maxBytes = Number.POSITIVE_INFINITY): Transform & { result: () => StoredObject } {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(tooLarge(maxBytes));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return Object.assign(meter, { result: () => ({ size, sha256: hash.digest('hex') }) });
}

/** Rejects when a multipart file stream stopped at the multipart limit instead of its end. */
export function assertNotTruncated(content: Readable, maxBytes: number): void {
  if ((content as Readable & { truncated?: boolean }).truncated) throw tooLarge(maxBytes);
}

/** Files on local disk under `root`: written to a temporary name beside the target, then renamed. */
export function createLocalFileStore(root: string): FileStore {
  const fileOf = (key: string) => path.join(root, ...checkStoreKey(key).split('/'));
  return {
    description: `local disk ${root}`,
    put: async (key, content, options = {}) => {
      const target = fileOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.partial`;
      const meter = createMeter(options.maxBytes);
      try {
        await pipeline(content, meter, fs.createWriteStream(partial));
        assertNotTruncated(content, options.maxBytes ?? Number.POSITIVE_INFINITY);
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return meter.result();
    },
    get: async (key, range) => {
      const file = fileOf(key);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) throw new AppError('NotFound', 'The file is not in the store.');
      return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    stat: async (key) => {
      const stat = await fs.promises.stat(fileOf(key)).catch(() => null);
      return stat?.isFile() ? { size: stat.size } : null;
    },
    remove: async (key) => {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    removePrefix: async (prefix) => {
      await fs.promises.rm(path.join(root, ...checkStorePrefix(prefix).slice(0, -1).split('/')), { recursive: true, force: true });
    },
  };
}

/** The store the configuration names: local disk under DATA_DIR/store by default. */
export function createFileStore(options: { dataDir: string }): FileStore {
  return createLocalFileStore(path.join(options.dataDir, 'store'));
}

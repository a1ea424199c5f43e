import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
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
  /** Where files are kept, for logs and docs ("local disk /data/store", "s3://bucket/prefix/"). */
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

/** Whether `segment` may be one segment of a key: letters, digits, '.', '_' and '-', starting with a letter or digit. */
export function isStoreKeySegment(segment: string): boolean {
  return SEGMENT.test(segment) && segment !== '..';
}

/** Refuses a key that is not a path of safe segments (no '..', no empty segment). */
export function checkStoreKey(key: string): string {
  if (!key.split('/').every(isStoreKeySegment)) throw new Error(`Not a file store key: ${key}`);
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

type MaybeTruncated = Readable & { truncated?: boolean };

/**
 * A pass-through that counts and hashes what flows, and fails with PayloadTooLarge past
 * `maxBytes`. Given the `source` it reads, it also fails instead of ending when that source is a
 * multipart file stream that stopped at the multipart limit (`truncated`): a store that completes
 * its object when this stream ends never completes a cut-off file.
 */
export function createMeter(maxBytes = Number.POSITIVE_INFINITY, source?: Readable): Transform & { result: () => StoredObject } {
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
    flush(callback) {
      callback((source as MaybeTruncated | undefined)?.truncated ? tooLarge(maxBytes) : null);
    },
  });
  return Object.assign(meter, { result: () => ({ size, sha256: hash.digest('hex') }) });
}

/** Rejects when a multipart file stream stopped at the multipart limit instead of its end. */
export function assertNotTruncated(content: Readable, maxBytes: number): void {
  if ((content as MaybeTruncated).truncated) throw tooLarge(maxBytes);
}

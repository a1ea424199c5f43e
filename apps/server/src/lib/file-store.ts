import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError } from './app-error.js';
import { checkStoreKey, checkStorePrefix, createMeter, type FileStore } from './file-store-contract.js';
import type { S3FileStoreSettings } from './file-store-s3.js';

// The seam itself (the FileStore type, keys, the meter) lives in file-store-contract.ts so that
// both stores can use it; callers import all of it from here.
export {
  assertNotTruncated,
  checkStoreKey,
  checkStorePrefix,
  createMeter,
  isStoreKeySegment,
  tooLarge,
  type ByteRange,
  type FileStore,
  type PutOptions,
  type StoredObject,
} from './file-store-contract.js';
export type { S3FileStoreSettings } from './file-store-s3.js';

/** Which store holds the files (config.ts reads it from FILE_STORE_URL and the S3_* settings). */
export type FileStoreSettings = { kind: 'local'; root: string } | ({ kind: 's3' } & S3FileStoreSettings);

/** Files on local disk under `root`: written to a temporary name beside the target, then renamed. */
export function createLocalFileStore(root: string): FileStore {
  const fileOf = (key: string) => path.join(root, ...checkStoreKey(key).split('/'));
  return {
    description: `local disk ${root}`,
    put: async (key, content, options = {}) => {
      const target = fileOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.partial`;
      const meter = createMeter(options.maxBytes, content);
      try {
        await pipeline(content, meter, fs.createWriteStream(partial));
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

/**
 * The store the configuration names: local disk (DATA_DIR/store by default) or an S3-compatible
 * store. The AWS SDK is loaded only for the latter (it adds about half a second to start-up).
 */
export async function createFileStore(settings: FileStoreSettings): Promise<FileStore> {
  if (settings.kind === 'local') return createLocalFileStore(settings.root);
  const { createS3FileStore } = await import('./file-store-s3.js');
  return createS3FileStore(settings);
}

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cleanFirmwareFileName } from '@plinth/shared';
import { AppError } from '../../lib/app-error.js';

/**
 * Firmware files on local disk under DATA_DIR/firmware/<hardwareId>/<fileName>. Names are
 * checked (no folders, no `[ORG]` prefix, .gbm0 or .gbm4) before any path is built.
 */
export type FirmwareStore = {
  save: (hardwareId: string, fileName: string, content: Readable) => Promise<{ size: number; sha256: string }>;
  /** Size and SHA-256 of a stored file, or null when it is not there. */
  inspect: (hardwareId: string, fileName: string) => Promise<{ size: number; sha256: string } | null>;
  open: (hardwareId: string, fileName: string) => Readable;
  remove: (hardwareId: string, fileName: string) => Promise<boolean>;
};

export function createFirmwareStore(dataDir: string): FirmwareStore {
  const root = path.join(dataDir, 'firmware');
  const fileOf = (hardwareId: string, fileName: string) => {
    const clean = cleanFirmwareFileName(fileName);
    if (!clean || !/^[0-9a-f-]{36}$/i.test(hardwareId)) throw new AppError('ValidationError', `fileName: "${fileName}" is not a firmware file name`);
    return path.join(root, hardwareId, clean);
  };
  return {
    save: async (hardwareId, fileName, content) => {
      const target = fileOf(hardwareId, fileName);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${process.pid}.partial`;
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      try {
        await pipeline(content, meter, fs.createWriteStream(partial));
        if ((content as Readable & { truncated?: boolean }).truncated) throw new AppError('ValidationError', 'The upload is too large.');
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return { size, sha256: hash.digest('hex') };
    },
    inspect: async (hardwareId, fileName) => {
      const file = fileOf(hardwareId, fileName);
      try {
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of fs.createReadStream(file)) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
        return { size, sha256: hash.digest('hex') };
      } catch {
        return null;
      }
    },
    open: (hardwareId, fileName) => fs.createReadStream(fileOf(hardwareId, fileName)),
    remove: async (hardwareId, fileName) => {
      try {
        await fs.promises.unlink(fileOf(hardwareId, fileName));
        return true;
      } catch {
        return false;
      }
    },
  };
}

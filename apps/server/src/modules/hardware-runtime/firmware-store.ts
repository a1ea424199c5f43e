import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { cleanFirmwareFileName } from '@plinth/shared';
import { AppError } from '../../lib/app-error.js';
import type { FileStore, StoredObject } from '../../lib/file-store.js';

/**
 * Firmware files in the file store (deps.files, shared by every node) under
 * `firmware/<hardwareId>/<key of the name>`. Names are checked (no folders, no `[ORG]` prefix,
 * .gbm0 or .gbm4) before any key is built.
 */
export type FirmwareStore = {
  save: (hardwareId: string, fileName: string, content: Readable) => Promise<StoredObject>;
  /** Size and SHA-256 of a stored file, or null when it is not there. */
  inspect: (hardwareId: string, fileName: string) => Promise<StoredObject | null>;
  /** The file's bytes; rejects NotFound when it is not there. */
  open: (hardwareId: string, fileName: string) => Promise<Readable>;
  /** Removes the file; false when it was not there. */
  remove: (hardwareId: string, fileName: string) => Promise<boolean>;
};

const HARDWARE_ID = /^[0-9a-f-]{36}$/i;

/**
 * The store key of a firmware file. A name may be 200 characters of any script, too long for
 * a file name once encoded (255 bytes on most disks), so the key is the SHA-256 of the name;
 * the name itself is in the firmware record.
 */
export function firmwareKey(hardwareId: string, fileName: string): string {
  const clean = cleanFirmwareFileName(fileName);
  if (!clean || !HARDWARE_ID.test(hardwareId)) throw new AppError('ValidationError', `fileName: "${fileName}" is not a firmware file name`);
  return `firmware/${hardwareId.toLowerCase()}/${createHash('sha256').update(clean, 'utf8').digest('hex')}`;
}

export function createFirmwareStore(files: FileStore, options: { maxBytes: number }): FirmwareStore {
  return {
    save: (hardwareId, fileName, content) => files.put(firmwareKey(hardwareId, fileName), content, { maxBytes: options.maxBytes }),
    inspect: async (hardwareId, fileName) => {
      const key = firmwareKey(hardwareId, fileName);
      if (!(await files.stat(key))) return null;
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of await files.get(key)) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      return { size, sha256: hash.digest('hex') };
    },
    open: async (hardwareId, fileName) => files.get(firmwareKey(hardwareId, fileName)),
    remove: async (hardwareId, fileName) => {
      const key = firmwareKey(hardwareId, fileName);
      if (!(await files.stat(key))) return false;
      await files.remove(key);
      return true;
    },
  };
}

/**
 * Before firmware went through the file store, it was kept on each node's disk under
 * DATA_DIR/firmware/<hardwareId>/<fileName>. At start, each node moves what it has there into
 * the store (a copy the store already has is only deleted: the store's is the newer upload),
 * then removes the emptied folders; a file that fails to move stays for the next start.
 */
export async function moveLocalFirmwareIntoStore(input: { files: FileStore; dataDir: string; logger: Logger }): Promise<{ moved: number; kept: number }> {
  const root = path.join(input.dataDir, 'firmware');
  const boards = await fs.promises.readdir(root, { withFileTypes: true }).catch(() => []);
  const counts = { moved: 0, kept: 0 };
  for (const board of boards.filter((entry) => entry.isDirectory() && HARDWARE_ID.test(entry.name))) {
    const folder = path.join(root, board.name);
    for (const name of await fs.promises.readdir(folder)) {
      const outcome = await moveOne(input, { hardwareId: board.name, file: path.join(folder, name), name });
      if (outcome !== 'dropped') counts[outcome] += 1;
    }
    await fs.promises.rmdir(folder).catch(() => undefined);
  }
  await fs.promises.rmdir(root).catch(() => undefined);
  if (counts.moved > 0) input.logger.info(`Moved ${counts.moved} firmware file(s) from ${root} into the file store (${input.files.description})`);
  if (counts.kept > 0) input.logger.warn(`${counts.kept} file(s) in ${root} were not moved into the file store; see the warnings above`);
  return counts;
}

async function moveOne(
  input: { files: FileStore; logger: Logger },
  entry: { hardwareId: string; file: string; name: string },
): Promise<'moved' | 'kept' | 'dropped'> {
  // What an interrupted upload left behind was never a firmware file.
  if (entry.name.endsWith('.partial')) {
    await fs.promises.rm(entry.file, { force: true });
    return 'dropped';
  }
  try {
    if (cleanFirmwareFileName(entry.name) !== entry.name) throw new Error('not a firmware file name');
    const key = firmwareKey(entry.hardwareId, entry.name);
    if (!(await input.files.stat(key))) await input.files.put(key, fs.createReadStream(entry.file));
    await fs.promises.rm(entry.file);
    return 'moved';
  } catch (error) {
    input.logger.warn({ err: error, file: entry.file }, 'A firmware file could not be moved into the file store');
    return 'kept';
  }
}

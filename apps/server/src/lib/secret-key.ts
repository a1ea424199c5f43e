import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { newSecretKeyText, parseSecretKey } from './secret-box.js';

/** The key file in DATA_DIR used when SECRET_KEY is not set. */
export const SECRET_KEY_FILE = 'secret.key';

/**
 * The key that encrypts stored secrets: SECRET_KEY, else DATA_DIR/secret.key, created (mode 0600)
 * at the first start without one and read at later starts. Says at start which one it uses; with
 * DATABASE_URL it warns that every instance needs the same key.
 */
export function loadSecretKey(config: Pick<Config, 'secretKey' | 'dataDir' | 'DATABASE_URL'>, logger: Logger): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  const isCreated = createKeyFileIfMissing(file);
  const key = parseSecretKey(fs.readFileSync(file, 'utf8'));
  if (!key) {
    throw new ConfigError(`${file} does not hold a valid key (32 bytes, base64 or hex): restore it from a backup, or set SECRET_KEY.`);
  }
  const shared = config.DATABASE_URL
    ? ' Every Plinth instance on this database must use the same key: set SECRET_KEY (the content of this file) on each.'
    : '';
  if (isCreated) {
    logger.warn(
      `SECRET_KEY is not set: generated a new key in ${file}. It encrypts the stored passwords of external services ` +
        `(the content manager): back it up with the data, they cannot be read without it.${shared}`,
    );
  } else if (shared) {
    logger.warn(`SECRET_KEY is not set: stored passwords are encrypted with the key in ${file}.${shared}`);
  } else {
    logger.info(`Stored passwords are encrypted with the key in ${file} (SECRET_KEY is not set); back it up with the data.`);
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) logger.warn(`${file} can be read by other users of this machine: chmod 600 it.`);
  return key;
}

/** Creates the key file in one step (two instances starting at once end with one key). Answers whether it did. */
function createKeyFileIfMissing(file: string): boolean {
  if (fs.existsSync(file)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temporary, `${newSecretKeyText()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

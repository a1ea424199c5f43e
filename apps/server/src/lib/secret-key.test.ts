import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { captureLogs } from '../test/log-capture.js';
import { newSecretKeyText } from './secret-box.js';
import { loadSecretKey } from './secret-key.js';

const dirs: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-key-'));
  dirs.push(dir);
  return path.join(dir, 'data');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the secret key', () => {
  it('is generated into DATA_DIR/secret.key (0600) at the first start, said so, and read at later starts', () => {
    const dir = dataDir();
    const first = captureLogs('info');
    const key = loadSecretKey(loadConfig({ DATA_DIR: dir }), first.logger);
    const file = path.join(dir, 'secret.key');
    expect(key).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.text()).toMatch(/generated a new key in .*secret\.key.*back it up/);

    const later = captureLogs('info');
    expect(loadSecretKey(loadConfig({ DATA_DIR: dir }), later.logger)).toEqual(key);
    expect(later.text()).not.toMatch(/generated/);
    expect(later.text()).toMatch(/back it up/);
  });

  it('warns with PostgreSQL that every instance needs the same key', () => {
    const logs = captureLogs('info');
    loadSecretKey(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://db/plinth' }), logs.logger);
    expect(logs.lines.find((line) => /same key/.test(String(line.msg)))?.level).toBe(40);
  });

  it('uses SECRET_KEY when set, and writes no file', () => {
    const dir = dataDir();
    const text = newSecretKeyText();
    const key = loadSecretKey(loadConfig({ DATA_DIR: dir, SECRET_KEY: text }), captureLogs().logger);
    expect(key).toEqual(Buffer.from(text, 'base64'));
    expect(fs.existsSync(path.join(dir, 'secret.key'))).toBe(false);
  });

  it('refuses a damaged key file', () => {
    const dir = dataDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'secret.key'), 'not a key\n', { mode: 0o600 });
    expect(() => loadSecretKey(loadConfig({ DATA_DIR: dir }), captureLogs().logger)).toThrow(ConfigError);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDotEnv } from './dotenv.js';

const KEYS = ['PLINTH_DOTENV_A', 'PLINTH_DOTENV_B'];
afterEach(() => {
  for (const key of KEYS) delete process.env[key];
});

describe('loadDotEnv', () => {
  it('reads .env from the folder, and the environment wins over the file', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-dotenv-'));
    fs.writeFileSync(path.join(folder, '.env'), '# settings\nPLINTH_DOTENV_A=from-file\nPLINTH_DOTENV_B=from-file\n');
    process.env.PLINTH_DOTENV_B = 'from-environment';
    expect(loadDotEnv(folder)).toBe(path.join(folder, '.env'));
    expect(process.env.PLINTH_DOTENV_A).toBe('from-file');
    expect(process.env.PLINTH_DOTENV_B).toBe('from-environment');
    fs.rmSync(folder, { recursive: true });
  });

  it('does nothing without a .env', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-dotenv-'));
    expect(loadDotEnv(folder)).toBeNull();
    expect(process.env.PLINTH_DOTENV_A).toBeUndefined();
    fs.rmSync(folder, { recursive: true });
  });
});

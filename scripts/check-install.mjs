#!/usr/bin/env node
// What a fresh clone must do right after `npm install`, before anything else is built: the
// command line the README shows works (`npx plinth user create …`), and it reads `.env` from the
// directory it runs in. `npm test` runs this first, so CI checks it on a clean clone.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-install-'));
const failures = [];

function run(label, command, args, options) {
  const res = spawnSync(command, args, { encoding: 'utf8', ...options });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  console.log(`- ${label}: exit ${res.status}`);
  return { ok: res.status === 0, output };
}

try {
  // The README's command, from the project folder, with the embedded database in a new folder.
  const env = { ...process.env, DATA_DIR: path.join(work, 'from-env-var'), DATABASE_URL: '' };
  const created = run('npx plinth user create', 'npx', ['plinth', 'user', 'create', '--email', 'ada@example.org', '--password', 'Choose4Password', '--platform-admin'], { cwd: root, env });
  if (!created.ok || !created.output.includes('Created user ada@example.org (platform admin).')) failures.push(`npx plinth user create failed:\n${created.output}`);

  // The same binary run from a folder with a .env: its DATA_DIR is the one used.
  fs.writeFileSync(path.join(work, '.env'), 'DATA_DIR=./from-dotenv\nLOG_LEVEL=warn\n');
  const { DATA_DIR: _unset, ...withoutDataDir } = process.env;
  const fromDotEnv = run('plinth with a .env', process.execPath, [path.join(root, 'apps/server/bin/plinth.js'), 'user', 'create', '--email', 'bob@example.org', '--password', 'Choose4Password'], {
    cwd: work,
    env: { ...withoutDataDir, DATABASE_URL: '' },
  });
  if (!fromDotEnv.ok || !fs.existsSync(path.join(work, 'from-dotenv', 'pgdata'))) failures.push(`plinth did not use the DATA_DIR of .env:\n${fromDotEnv.output}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

if (failures.length) {
  console.error(failures.join('\n\n'));
  process.exit(1);
}
console.log('The command line works right after install and reads .env.');

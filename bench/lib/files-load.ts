// A load process for the files benchmark (bench/files.bench.ts): many @plinth/sdk exhibits in
// one Node process, each with its own `contentDir`, all started at once; reports when each one's
// getFiles() holds the expected folder, then what is on disk. Driven over the fork IPC channel.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Exhibit } from '@plinth/sdk';
import type { ManifestInput } from '@plinth/shared';

export type FilesLoadExhibit = { id: string; token: string; index: number };
export type ExpectedFile = { name: string; size: number; sha256: string };

export type ToFilesLoad =
  /** Start every exhibit now, each mirroring into `<baseDir>/<index>`. */
  | { type: 'start'; serverUrl: string; exhibits: FilesLoadExhibit[]; baseDir: string; expected: ExpectedFile[]; manifest: ManifestInput }
  /** Count the bytes on disk of every exhibit and hash the first exhibit's files. */
  | { type: 'verify' }
  | { type: 'close' };

export type FromFilesLoad =
  | { type: 'loaded' }
  /** `at`: epoch ms when getFiles() first matched the expected folder. */
  | { type: 'synced'; index: number; at: number; events: number }
  | { type: 'progress'; ready: number; synced: number; filesEvents: number; errors: string[] }
  | { type: 'verified'; bytesOnDisk: number; filesOnDisk: number; hashed: number; mismatches: string[] }
  | { type: 'closed' };

type Running = { exhibit: Exhibit; item: FilesLoadExhibit; dir: string; synced: boolean; events: number };

const running: Running[] = [];
const errors = new Set<string>();
let expected: ExpectedFile[] = [];
let ready = 0;
let filesEvents = 0;

const report = (message: FromFilesLoad) => process.send?.(message);

/** True when the exhibit's getFiles() lists exactly the expected names, sizes and hashes. */
async function holdsFolder(run: Running): Promise<boolean> {
  const files = await run.exhibit.getFiles();
  if (files.length !== expected.length) return false;
  const byName = new Map(files.map((f) => [f.name, f]));
  return expected.every((want) => {
    const have = byName.get(want.name);
    return have !== undefined && have.size === want.size && have.sha256 === want.sha256;
  });
}

async function check(run: Running): Promise<void> {
  if (run.synced || !(await holdsFolder(run)) || run.synced) return;
  run.synced = true;
  report({ type: 'synced', index: run.item.index, at: Date.now(), events: run.events });
}

function start(message: Extract<ToFilesLoad, { type: 'start' }>): void {
  expected = message.expected;
  for (const item of message.exhibits) {
    const dir = path.join(message.baseDir, String(item.index));
    const exhibit = new Exhibit({ serverUrl: message.serverUrl, exhibitId: item.id, token: item.token, manifest: message.manifest, contentDir: dir, reconnectMinMs: 1000 });
    const run: Running = { exhibit, item, dir, synced: false, events: 0 };
    exhibit.on('error', (error) => errors.add(error.message));
    exhibit.on('files', () => {
      run.events += 1;
      filesEvents += 1;
      void check(run);
    });
    exhibit.ready().then(
      () => {
        ready += 1;
      },
      (error: Error) => errors.add(error.message),
    );
    running.push(run);
  }
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Bytes and files on disk (the SDK's own record and temporary files left out); the first exhibit's files hashed. */
async function verify(): Promise<void> {
  let bytesOnDisk = 0;
  let filesOnDisk = 0;
  for (const run of running) {
    for (const entry of await fs.readdir(run.dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile() || entry.name.startsWith('.plinth-')) continue;
      bytesOnDisk += (await fs.stat(path.join(run.dir, entry.name))).size;
      filesOnDisk += 1;
    }
  }
  const mismatches: string[] = [];
  const first = running[0];
  if (first) {
    for (const want of expected) {
      const have = await hashFile(path.join(first.dir, want.name)).catch(() => 'missing');
      if (have !== want.sha256) mismatches.push(`${first.item.index}/${want.name}`);
    }
  }
  report({ type: 'verified', bytesOnDisk, filesOnDisk, hashed: first ? expected.length : 0, mismatches });
}

function closeAll(): void {
  for (const { exhibit } of running) exhibit.close();
  report({ type: 'closed' });
  setTimeout(() => process.exit(0), 500);
}

// Every second: a check of the exhibits not yet in sync (a `files` event may have come before
// the record was written), and progress to the parent.
const timer = setInterval(() => {
  for (const run of running) if (!run.synced) void check(run);
  report({ type: 'progress', ready, synced: running.filter((r) => r.synced).length, filesEvents, errors: [...errors].slice(0, 5) });
}, 1000);
timer.unref();

process.on('message', (message: ToFilesLoad) => {
  switch (message.type) {
    case 'start':
      start(message);
      return;
    case 'verify':
      void verify();
      return;
    case 'close':
      closeAll();
      return;
  }
});
process.on('disconnect', () => process.exit(0));
report({ type: 'loaded' });

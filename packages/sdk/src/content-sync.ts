import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SdkFile } from '../../shared/src/sdk-protocol.js';

/**
 * Keeps an exhibit's content folder in step with its files in Plinth: on every `files.changed`
 * it downloads new and changed files (checked by SHA-256, written to a temporary name in the same
 * folder and renamed, so the exhibit never reads half a file) and deletes the files removed in
 * the console. It deletes only files it placed itself (recorded in `.plinth-sync.json`); files
 * put in the folder by other means stay.
 */

/** What one pass changed, by file name. */
export type FilesChange = { added: string[]; updated: string[]; removed: string[] };

/** A file in the content folder as the SDK placed it. */
export type LocalFile = { name: string; size: number; sha256: string | null; updatedAt: string; organizational: boolean };

export type ContentSyncOptions = {
  dir: string;
  serverUrl: string;
  exhibitId: string;
  token: string;
  skipOrganizationFiles: boolean;
  onChange: (change: FilesChange) => void;
  onError: (error: Error) => void;
};

/** The record of what the SDK placed: name -> the version it holds. */
type SyncState = { files: Record<string, LocalFile> };

const STATE_FILE = '.plinth-sync.json';
const TEMP_PREFIX = '.plinth-download-';
const RETRY_MS = 5_000;

/** Names the SDK will write: no folder parts, nothing hidden of its own, no control characters. */
function isWritableName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return Boolean(name) && !/[/\\\u0000-\u001f\u007f]/.test(name) && name !== '.' && !name.includes('..') && !name.startsWith('.plinth-');
}

export class ContentSync {
  private readonly options: ContentSyncOptions;
  private desired: SdkFile[] | null = null;
  /** The content manager could not be read: the organizational files held stay. */
  private keepOrganizational = false;
  private state: SyncState | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly waiters = new Set<() => void>();
  /** Local hashes already computed this run of the process, by name, with the size and mtime they hold for. */
  private readonly hashes = new Map<string, { size: number; mtimeMs: number; sha256: string }>();

  constructor(options: ContentSyncOptions) {
    this.options = options;
  }

  /**
   * The files the exhibit should hold now (from `files.changed`); starts a pass. With
   * `organizationalUnavailable` the list lacks the organizational files because the content
   * manager could not be read: those already here are kept, not deleted.
   */
  update(files: SdkFile[], organizationalUnavailable = false): void {
    this.keepOrganizational = organizationalUnavailable;
    this.desired = files.filter((f) => isWritableName(f.name) && !(this.options.skipOrganizationFiles && f.organizational));
    this.kick();
  }

  /** A new connection: the next `files.changed` says what to hold; until then, nothing counts as known. */
  reset(): void {
    this.desired = null;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** The files the SDK placed in the content folder (not the ones put there by other means). */
  async list(): Promise<LocalFile[]> {
    const state = await this.loadState();
    return Object.values(state.files).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Resolves once the named files are on disk in the version Plinth holds, or are not Plinth
   * files at all (a value naming a file that does not exist is delivered as it is).
   */
  async whenPresent(names: string[]): Promise<void> {
    const wanted = names.filter(Boolean);
    while (!this.closed && wanted.length && !this.arePresent(wanted)) {
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /** True when the named files are on disk in the version Plinth holds now (or are not Plinth files). */
  holds(names: string[]): boolean {
    return this.arePresent(names);
  }

  private arePresent(names: string[]): boolean {
    if (!this.desired || !this.state) return false;
    for (const name of names) {
      const want = this.desired.find((f) => f.name === name);
      if (want && !sameVersion(this.state.files[name], want)) return false;
    }
    return true;
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  private kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.retryTimer);
    this.running = this.pass()
      .catch((error: unknown) => {
        this.options.onError(error instanceof Error ? error : new Error(String(error)));
        this.retryTimer = setTimeout(() => this.kick(), RETRY_MS);
        this.retryTimer.unref();
      })
      .finally(() => {
        this.running = null;
        this.wake();
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** One pass: download what is new or changed, delete what was removed, record the result. */
  private async pass(): Promise<void> {
    const desired = this.desired;
    if (!desired) return;
    await mkdir(this.options.dir, { recursive: true });
    const state = await this.loadState();
    await this.removeLeftoverDownloads();
    const change: FilesChange = { added: [], updated: [], removed: [] };
    let failure: Error | null = null;
    for (const file of desired) {
      if (this.closed) return;
      try {
        if (await this.isCurrent(state.files[file.name], file)) continue;
        const existed = await exists(this.pathOf(file.name));
        const size = await this.download(file);
        state.files[file.name] = { name: file.name, size, sha256: file.sha256, updatedAt: file.updatedAt, organizational: file.organizational };
        (existed ? change.updated : change.added).push(file.name);
        await this.saveState(state);
        this.wake();
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }
    }
    const keep = new Set(desired.map((f) => f.name));
    for (const [name, held] of Object.entries(state.files)) {
      if (keep.has(name) || (held.organizational && this.keepOrganizational)) continue;
      await rm(this.pathOf(name), { force: true });
      delete state.files[name];
      this.hashes.delete(name);
      change.removed.push(name);
    }
    await this.saveState(state);
    if (change.added.length || change.updated.length || change.removed.length) this.options.onChange(change);
    if (failure) throw failure;
  }

  /**
   * True when the file on disk is the version Plinth holds: by SHA-256, or for organizational
   * files (whose listed size the content manager rounds) by their date and the size downloaded.
   */
  private async isCurrent(recorded: LocalFile | undefined, want: SdkFile): Promise<boolean> {
    const info = await stat(this.pathOf(want.name)).catch(() => null);
    if (!info?.isFile()) return false;
    if (want.sha256 === null) return sameVersion(recorded, want) && recorded?.size === info.size;
    if (info.size !== want.size) return false;
    const known = this.hashes.get(want.name);
    const sha256 =
      known && known.size === info.size && known.mtimeMs === info.mtimeMs ? known.sha256 : await hashFile(this.pathOf(want.name));
    this.hashes.set(want.name, { size: info.size, mtimeMs: info.mtimeMs, sha256 });
    if (sha256 !== want.sha256) return false;
    if (!sameVersion(recorded, want) && this.state) {
      // The right bytes are already there (copied by hand, or the record was lost): adopt them.
      this.state.files[want.name] = { ...want };
    }
    return true;
  }

  /** Downloads one file into place; answers its size. */
  private async download(file: SdkFile): Promise<number> {
    const url = new URL('/api/v1/content/files/', this.options.serverUrl);
    url.searchParams.set('exhibitId', this.options.exhibitId);
    url.searchParams.set('fileName', file.name);
    const auth = Buffer.from(`${this.options.exhibitId}:${this.options.token}`).toString('base64');
    const res = await fetch(url, { headers: { authorization: `Basic ${auth}` } });
    if (!res.ok || !res.body) throw new Error(`Could not download "${file.name}" (HTTP ${res.status}).`);
    const temp = path.join(this.options.dir, `${TEMP_PREFIX}${randomUUID()}`);
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
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), meter, createWriteStream(temp));
      const sha256 = hash.digest('hex');
      if (file.sha256 !== null && sha256 !== file.sha256) throw new Error(`"${file.name}" changed while it downloaded; it will be fetched again.`);
      await rename(temp, this.pathOf(file.name));
      const info = await stat(this.pathOf(file.name));
      this.hashes.set(file.name, { size: info.size, mtimeMs: info.mtimeMs, sha256 });
      return size;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  private pathOf(name: string): string {
    return path.join(this.options.dir, name);
  }

  private async loadState(): Promise<SyncState> {
    if (this.state) return this.state;
    try {
      const parsed = JSON.parse(await readFile(path.join(this.options.dir, STATE_FILE), 'utf8')) as SyncState;
      this.state = { files: typeof parsed.files === 'object' && parsed.files ? parsed.files : {} };
    } catch {
      this.state = { files: {} };
    }
    return this.state;
  }

  private async saveState(state: SyncState): Promise<void> {
    const temp = path.join(this.options.dir, `${STATE_FILE}.${randomUUID()}`);
    await writeFile(temp, JSON.stringify(state, null, 1));
    await rename(temp, path.join(this.options.dir, STATE_FILE));
  }

  /** Temporary files of a download (or a record) a crash interrupted; passes never overlap, so none is in use. */
  private async removeLeftoverDownloads(): Promise<void> {
    const names = await readdir(this.options.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n.startsWith(TEMP_PREFIX) || n.startsWith(`${STATE_FILE}.`))
        .map((n) => rm(path.join(this.options.dir, n), { force: true })),
    );
  }
}

function sameVersion(recorded: LocalFile | undefined, want: SdkFile): boolean {
  if (!recorded) return false;
  if (want.sha256 !== null) return recorded.sha256 === want.sha256;
  return recorded.updatedAt === want.updatedAt;
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null)) !== null;
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
import { Exhibit, type FilesChange } from '@plinth/sdk';
import { createExhibit, createOrganization, createSite } from '../test/factories.js';
import { startFakeStrapi, type FakeStrapi } from '../test/fake-strapi.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

// The Node SDK keeps `contentDir` in step with the exhibit's files, against the real server.

let server: TestServer;
let admin: TestClient;
let siteId: string;
let strapi: FakeStrapi;
let organizationId: string;
const open: Exhibit[] = [];
const dirs: string[] = [];

const MANIFEST: ManifestInput = {
  settings: [{ id: 'video', type: 'FileSelection', display: 'Video' }],
  settingLists: [{ id: 'playlist', settings: [{ id: 'clip', type: 'FileSelection' }] }],
};

beforeAll(async () => {
  strapi = await startFakeStrapi();
  server = await startTestServer({}, { allowLoopbackHosts: [strapi.host] });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  const org = await createOrganization(server.deps.db);
  organizationId = org.id;
  siteId = (await createSite(server.deps.db, org.id)).id;
});

afterEach(() => {
  for (const exhibit of open.splice(0)) exhibit.close();
});

afterAll(async () => {
  await server?.stop();
  await strapi?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function newExhibit(): Promise<{ id: string; token: string }> {
  const exhibit = await createExhibit(server.deps.db, siteId);
  const res = await admin.post('/auth/exhibit', { name: 'main', exhibitId: exhibit.id });
  expect(res.status).toBe(200);
  return { id: exhibit.id, token: res.body.token };
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-sdk-files-'));
  dirs.push(dir);
  return dir;
}

function connect(record: { id: string; token: string }, contentDir: string): Exhibit {
  const exhibit = new Exhibit({
    serverUrl: server.url,
    exhibitId: record.id,
    token: record.token,
    manifest: MANIFEST,
    contentDir,
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
  });
  open.push(exhibit);
  return exhibit;
}

async function upload(exhibitId: string, files: Record<string, string | Buffer>): Promise<void> {
  const form = new FormData();
  for (const [name, content] of Object.entries(files)) form.append('file', new Blob([content]), name);
  const res = await admin.request('POST', `/content/files/upload?exhibitId=${exhibitId}&siteId=${siteId}`, form);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function remove(exhibitId: string, fileName: string, confirm = false): Promise<void> {
  const query = new URLSearchParams({ siteId, exhibitId, fileName, ...(confirm ? { confirm: 'true' } : {}) });
  const res = await admin.delete(`/content/files/?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');
const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
const listed = (dir: string) => fs.readdirSync(dir).filter((n) => !n.startsWith('.plinth-')).sort();

describe('SDK content folder', () => {
  it('downloads the files on connect, then new and replaced ones, and deletes removed ones', async () => {
    const record = await newExhibit();
    await upload(record.id, { 'intro.mp4': 'first intro', 'logo.png': 'png bytes' });
    const dir = tempDir();
    const exhibit = connect(record, dir);
    const changes: FilesChange[] = [];
    exhibit.on('files', (change) => changes.push(change));
    await exhibit.ready();
    await vi.waitFor(() => expect(listed(dir)).toEqual(['intro.mp4', 'logo.png']), { timeout: 10_000 });
    expect(read(dir, 'intro.mp4')).toBe('first intro');
    // The change is told once the sync has saved its state, a moment after the files are in place.
    await vi.waitFor(() => expect(changes[0]).toEqual({ added: ['intro.mp4', 'logo.png'], updated: [], removed: [] }));

    await upload(record.id, { 'intro.mp4': 'second intro, longer' });
    await vi.waitFor(() => expect(read(dir, 'intro.mp4')).toBe('second intro, longer'), { timeout: 10_000 });
    await vi.waitFor(() => expect(changes.some((c) => c.updated.includes('intro.mp4'))).toBe(true));

    await remove(record.id, 'logo.png');
    await vi.waitFor(() => expect(listed(dir)).toEqual(['intro.mp4']), { timeout: 10_000 });
    await vi.waitFor(() => expect(changes.some((c) => c.removed.includes('logo.png'))).toBe(true));
    const local = await exhibit.getFiles();
    expect(local.map((f) => [f.name, f.sha256])).toEqual([['intro.mp4', sha256('second intro, longer')]]);
  });

  it('replaces a file atomically: a reader sees the old bytes or the new ones, never a part', async () => {
    const record = await newExhibit();
    const before = Buffer.alloc(3 * 1024 * 1024, 'a');
    const after = Buffer.alloc(5 * 1024 * 1024, 'b');
    await upload(record.id, { 'movie.mp4': before });
    const dir = tempDir();
    const exhibit = connect(record, dir);
    await exhibit.ready();
    const target = path.join(dir, 'movie.mp4');
    await vi.waitFor(() => expect(fs.existsSync(target) && fs.statSync(target).size).toBe(before.length), { timeout: 10_000 });

    const seen = new Set<string>();
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const bytes = await fs.promises.readFile(target);
        seen.add(bytes.equals(before) ? 'old' : bytes.equals(after) ? 'new' : `partial ${bytes.length}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await upload(record.id, { 'movie.mp4': after });
    await vi.waitFor(() => expect(fs.statSync(target).size).toBe(after.length), { timeout: 15_000 });
    reading = false;
    await reader;
    expect([...seen].filter((s) => s !== 'old' && s !== 'new')).toEqual([]);
    expect(seen.has('new') || fs.readFileSync(target).equals(after)).toBe(true);
  });

  it('delivers a FileSelection value only once its file is on disk', async () => {
    const record = await newExhibit();
    const dir = tempDir();
    const first = connect(record, dir);
    await first.ready();
    first.close();
    await vi.waitFor(async () => expect((await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body.online).toBe(false), { timeout: 10_000 });
    // Chosen while the exhibit is away: on reconnect the value arrives (exhibit.synced) before the
    // file list, and a large file takes a while to download; the value must wait for it.
    await upload(record.id, { 'big.mp4': Buffer.alloc(8 * 1024 * 1024, 'v') });
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/setting/video`, { value: 'big.mp4' })).status).toBe(200);

    const second = connect(record, dir);
    const delivered: { value: unknown; size: number | null }[] = [];
    second.on('setting', ({ id, value }) => {
      if (id !== 'video') return;
      const file = path.join(dir, String(value));
      delivered.push({ value, size: fs.existsSync(file) ? fs.statSync(file).size : null });
    });
    await second.ready();
    await vi.waitFor(() => expect(delivered).toHaveLength(1), { timeout: 15_000 });
    expect(delivered[0]).toEqual({ value: 'big.mp4', size: 8 * 1024 * 1024 });
    // Acknowledged once delivered: the console shows it applied.
    await vi.waitFor(async () => {
      const manifest = (await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body.manifest;
      expect(manifest.settings.find((x: { manifestId: string }) => x.manifestId === 'video')).toMatchObject({ value: 'big.mp4', applied: true });
    });
  });

  it('catches up after being offline: new files arrive, deleted ones go, the held setting follows', async () => {
    const record = await newExhibit();
    await upload(record.id, { 'a.txt': 'A', 'b.txt': 'B' });
    const dir = tempDir();
    const first = connect(record, dir);
    await first.ready();
    await vi.waitFor(() => expect(listed(dir)).toEqual(['a.txt', 'b.txt']), { timeout: 10_000 });
    first.close();
    await vi.waitFor(async () => expect((await admin.get(`/exhibit-management/exhibit/${record.id}/manifest`)).body.online).toBe(false), { timeout: 10_000 });

    // While it is away: one file deleted, one replaced, one added and chosen in a setting.
    await remove(record.id, 'a.txt');
    await upload(record.id, { 'b.txt': 'B two', 'c.txt': 'C' });
    expect((await admin.post(`/exhibit-management/exhibit/${record.id}/setting/video`, { value: 'c.txt' })).status).toBe(200);

    const second = connect(record, dir);
    const video = new Promise<unknown>((resolve) => {
      second.on('setting', ({ id, value }) => id === 'video' && resolve(fs.existsSync(path.join(dir, String(value))) ? value : 'delivered before its file'));
    });
    await second.ready();
    await vi.waitFor(() => expect(listed(dir)).toEqual(['b.txt', 'c.txt']), { timeout: 10_000 });
    expect(read(dir, 'b.txt')).toBe('B two');
    expect(await video).toBe('c.txt');
    expect(read(dir, 'c.txt')).toBe('C');
  });

  it('leaves files it did not place, and files of another exhibit never reach it', async () => {
    const record = await newExhibit();
    const other = await newExhibit();
    await upload(other.id, { 'secret.txt': 'not yours' });
    await upload(record.id, { 'mine.txt': 'yours' });
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'placed-by-hand.txt'), 'keep me');
    const exhibit = connect(record, dir);
    await exhibit.ready();
    await vi.waitFor(() => expect(listed(dir)).toEqual(['mine.txt', 'placed-by-hand.txt']), { timeout: 10_000 });
    await remove(record.id, 'mine.txt');
    await vi.waitFor(() => expect(listed(dir)).toEqual(['placed-by-hand.txt']), { timeout: 10_000 });
    // The exhibit's own credentials do not read another exhibit's file.
    const auth = Buffer.from(`${record.id}:${record.token}`).toString('base64');
    const res = await fetch(`${server.url}/api/v1/content/files/?exhibitId=${other.id}&fileName=secret.txt`, { headers: { authorization: `Basic ${auth}` } });
    expect([401, 403, 404]).toContain(res.status);
  });

  it("syncs the organization's [ORG] files unless told to skip them, and keeps them while the content manager is down", async () => {
    const value = JSON.stringify({ url: strapi.url, adminUser: 'cms-admin@example.com', adminPassword: 'Adm1n-pass', apiUser: 'api-user', apiPassword: 'Ap1-pass' });
    expect((await admin.put(`/org-management/organization/${organizationId}/setting/content_manager_config`, { value })).status).toBe(200);
    strapi.setFiles([{ name: 'logo.png', content: 'organization logo', mime: 'image/png' }]);
    try {
      const record = await newExhibit();
      await upload(record.id, { 'own.txt': 'own file' });
      const dir = tempDir();
      const exhibit = connect(record, dir);
      await exhibit.ready();
      await vi.waitFor(() => expect(listed(dir)).toEqual(['[ORG] logo.png', 'own.txt']), { timeout: 10_000 });
      expect(read(dir, '[ORG] logo.png')).toBe('organization logo');

      const skipping = new Exhibit({ serverUrl: server.url, exhibitId: record.id, token: record.token, manifest: MANIFEST, contentDir: tempDir(), skipOrganizationFiles: true });
      exhibit.close();
      open.push(skipping);
      await skipping.ready();
      await vi.waitFor(async () => expect((await skipping.getFiles()).map((f) => f.name)).toEqual(['own.txt']), { timeout: 10_000 });
      expect(listed(skipping.contentDir!)).toEqual(['own.txt']);
      skipping.close();

      // The content manager goes down: a change still syncs, and the [ORG] file already there stays.
      strapi.failures.library = 'serverError';
      const again = connect(record, dir);
      await again.ready();
      await upload(record.id, { 'second.txt': 'second' });
      await vi.waitFor(() => expect(listed(dir)).toEqual(['[ORG] logo.png', 'own.txt', 'second.txt']), { timeout: 10_000 });
    } finally {
      delete strapi.failures.library;
      strapi.setFiles([]);
      await admin.put(`/org-management/organization/${organizationId}/setting/content_manager_config`, { value: '' });
    }
  });
});

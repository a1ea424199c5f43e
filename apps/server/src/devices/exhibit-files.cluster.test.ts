import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManifestInput } from '@plinth/shared';
import { Exhibit } from '@plinth/sdk';
import { createExhibit, createOrganization, createSite, eventsDuring } from '../test/factories.js';
import { download, downloadUrl, sha256, startS3Store, upload, type TestStore } from '../test/files-kit.js';
import type { TestClient } from '../test/test-client.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

/**
 * Files across two server instances of one deployment (same PostgreSQL database, same Redis, the
 * same S3-compatible store): a file uploaded through one is downloaded through the other, and an
 * exhibit connected to the other mirrors it, then loses it when it is deleted through the first.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MANIFEST: ManifestInput = { settings: [{ id: 'video', type: 'FileSelection', display: 'Video' }] };

let store: TestStore;
let a: TestServer;
let b: TestServer;
let adminA: TestClient;
let adminB: TestClient;
let siteId: string;
let contentDir: string;
const open: Exhibit[] = [];

beforeAll(async () => {
  store = await startS3Store();
  a = await startTestServer({ ...store.env, REDIS_URL });
  b = await startTestServer({ ...store.env, REDIS_URL }, { databaseUrl: a.databaseUrl });
  const admin = await a.signUp({ isPlatformAdmin: true });
  adminA = admin.client;
  adminB = await b.signIn(admin.email, admin.password);
  const org = await createOrganization(a.deps.db);
  siteId = (await createSite(a.deps.db, org.id)).id;
  contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-cluster-files-'));
});
afterAll(async () => {
  for (const exhibit of open) exhibit.close();
  await b?.stop();
  await a?.stop();
  await store?.close();
  fs.rmSync(contentDir, { recursive: true, force: true });
});

describe('exhibit files across two server instances', () => {
  it('are uploaded through one, downloaded and mirrored through the other, and deleted everywhere', async () => {
    const exhibit = await createExhibit(a.deps.db, siteId);
    const token = (await adminA.post('/auth/exhibit', { name: 'main', exhibitId: exhibit.id })).body.token as string;
    const sdk = new Exhibit({ serverUrl: b.url, exhibitId: exhibit.id, token, manifest: MANIFEST, contentDir, reconnectMinMs: 50, reconnectMaxMs: 200 });
    open.push(sdk);
    await sdk.ready();

    const where = { exhibitId: exhibit.id, siteId };
    const content = Buffer.alloc(2 * 1024 * 1024, 'c');
    // The upload lands on A; the console event is published on B's hub too.
    const events = await eventsDuring(b, 'exhibit', exhibit.id, async () => {
      expect((await upload(adminA, where, [{ name: 'clip.mp4', content, type: 'video/mp4' }])).status).toBe(200);
      await vi.waitFor(() => expect(fs.existsSync(path.join(contentDir, 'clip.mp4'))).toBe(true), { timeout: 10_000 });
    });
    expect(events).toContainEqual({ type: 'exhibit.fileUploaded', exhibitId: exhibit.id, fileName: 'clip.mp4' });
    expect(sha256(fs.readFileSync(path.join(contentDir, 'clip.mp4')))).toBe(sha256(content));

    // B serves the bytes A stored.
    const viaB = await download(downloadUrl(b.url, exhibit.id, 'clip.mp4'), {}, adminB);
    expect(viaB.status).toBe(200);
    expect(sha256(viaB.body)).toBe(sha256(content));

    // Deleted through B: gone from the store and from the exhibit's folder (it is connected to B).
    const query = new URLSearchParams({ siteId, exhibitId: exhibit.id, fileName: 'clip.mp4' });
    expect((await adminB.delete(`/content/files/?${query}`)).status).toBe(200);
    await vi.waitFor(() => expect(fs.existsSync(path.join(contentDir, 'clip.mp4'))).toBe(false), { timeout: 10_000 });
    expect(await store.objectKeys(`files/${exhibit.id}/`)).toEqual([]);
    expect((await download(downloadUrl(a.url, exhibit.id, 'clip.mp4'), {}, adminA)).status).toBe(404);
  });
});

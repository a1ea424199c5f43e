import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { createOrganization } from '../../test/factories.js';
import { startFakeStrapi, type FakeStrapi } from '../../test/fake-strapi.js';
import type { TestClient } from '../../test/test-client.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { CONTENT_MANAGER_TIMEOUT_MS } from './content-manager.client.js';
import { listOrganizationFiles, openOrganizationFile } from './media-library.service.js';

let server: TestServer;
let admin: TestClient;
let strapi: FakeStrapi;
/** A second fake standing for a cloud storage provider the library's absolute URLs point at. */
let storage: FakeStrapi;
let deadUrl: string;

/** 3 MB: more than the outbound client buffers (2 MiB), so it must stream. */
const VIDEO = randomBytes(3_000_123);
const UPDATED = '2026-03-04T05:06:07.000Z';

beforeAll(async () => {
  strapi = await startFakeStrapi();
  storage = await startFakeStrapi();
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  server = await startTestServer({}, { allowLoopbackHosts: [strapi.host, storage.host, new URL(deadUrl).host] });
  admin = (await server.signUp({ isPlatformAdmin: true })).client;
  storage.setFiles([{ name: 'cloud.txt', content: 'from the cloud' }]);
  strapi.setFiles([
    { name: 'logo.png', content: 'PNG-bytes', mime: 'image/png', updatedAt: UPDATED },
    { name: 'intro.mp4', content: VIDEO, mime: 'video/mp4', updatedAt: UPDATED },
    { name: 'cloud.txt', content: 'from the cloud', mime: 'text/plain', updatedAt: UPDATED, url: storage.fileUrl('cloud.txt') },
    { name: 'a/b.png', content: 'refused name' },
    { name: 'old.txt', content: 'old version', updatedAt: '2026-01-01T00:00:00.000Z' },
    { name: 'old.txt', content: 'new version', updatedAt: '2026-02-01T00:00:00.000Z' },
  ]);
});
afterAll(async () => {
  await server?.stop();
  await strapi?.close();
  await storage?.close();
});

async function organizationWithCms(url: string) {
  const org = await createOrganization(server.deps.db);
  const value = JSON.stringify({ url, adminUser: 'cms-admin@example.com', adminPassword: 'Adm1n-pass', apiUser: 'api-user', apiPassword: 'Ap1-pass' });
  expect((await admin.put(`/org-management/organization/${org.id}/setting/content_manager_config`, { value })).status).toBe(200);
  return org.id;
}

async function read(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
}

describe('listOrganizationFiles', () => {
  it("lists the media library as '[ORG]' files with their size in bytes and date, leaving out names no disk can hold", async () => {
    const organizationId = await organizationWithCms(strapi.url);
    const listed = await listOrganizationFiles(server.deps, organizationId);
    expect(listed.errors).toEqual([]);
    expect(listed.files.map((f) => f.name)).toEqual(['[ORG] cloud.txt', '[ORG] intro.mp4', '[ORG] logo.png', '[ORG] old.txt']);
    expect(listed.files.find((f) => f.name === '[ORG] intro.mp4')).toEqual({
      name: '[ORG] intro.mp4',
      updated_at: UPDATED,
      size: 3_000_120,
      organizational: true,
      sha256: null,
    });
    expect(listed.files.find((f) => f.name === '[ORG] old.txt')?.updated_at).toBe('2026-02-01T00:00:00.000Z');
    const call = strapi.calls.findLast((c) => c.path === '/api/upload/files');
    expect(call?.authorization).toMatch(/^Bearer fake-jwt-/);
  });

  it('answers no files and no errors without a content manager, and an error when it cannot be read', async () => {
    const plain = await createOrganization(server.deps.db);
    expect(await listOrganizationFiles(server.deps, plain.id)).toEqual({ files: [], errors: [] });

    const dead = await organizationWithCms(deadUrl);
    const unreachable = await listOrganizationFiles(server.deps, dead);
    expect(unreachable.files).toEqual([]);
    expect(unreachable.errors).toEqual([
      "The organizational content (the content manager's media library) could not be read: The content manager could not be reached.",
    ]);

    const organizationId = await organizationWithCms(strapi.url);
    try {
      for (const failure of ['wrongShape', 'notJson', 'refuse', 'serverError'] as const) {
        strapi.failures.library = failure;
        const listed = await listOrganizationFiles(server.deps, organizationId);
        expect(listed.files, failure).toEqual([]);
        expect(listed.errors, failure).toHaveLength(1);
      }
      strapi.failures.library = 'slow';
      const started = Date.now();
      const slow = await listOrganizationFiles(server.deps, organizationId);
      expect(slow.errors[0]).toMatch(/did not answer within 5 seconds/);
      expect(Date.now() - started).toBeLessThan(CONTENT_MANAGER_TIMEOUT_MS + 2_000);
    } finally {
      delete strapi.failures.library;
    }
  }, 15_000);
});

describe('openOrganizationFile', () => {
  it('streams a whole file larger than any buffer, with its size, type and date', async () => {
    const organizationId = await organizationWithCms(strapi.url);
    const file = await openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] intro.mp4' });
    expect(file).toMatchObject({ size: VIDEO.length, contentType: 'video/mp4', updatedAt: UPDATED });
    expect((await read(file.body)).equals(VIDEO)).toBe(true);
  });

  it('reads a byte range, from a content manager that honours Range and from one that does not', async () => {
    const organizationId = await organizationWithCms(strapi.url);
    const range = { start: 1_000_000, end: 1_000_099 };
    for (const rangeSupport of [true, false]) {
      strapi.rangeSupport = rangeSupport;
      strapi.calls.length = 0;
      const file = await openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] intro.mp4', range });
      expect(file.size, String(rangeSupport)).toBe(VIDEO.length);
      expect((await read(file.body)).equals(VIDEO.subarray(1_000_000, 1_000_100)), String(rangeSupport)).toBe(true);
      expect(strapi.calls.find((c) => c.path.startsWith('/uploads/'))?.range).toBe('bytes=1000000-1000099');
    }
    strapi.rangeSupport = true;
    const tail = await openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] logo.png', range: { start: 4, end: 100 } });
    expect((await read(tail.body)).toString()).toBe('bytes');
    const past = await failure(openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] logo.png', range: { start: 50, end: 60 } }));
    expect(past.code).toBe('ValidationError');
  });

  it('reads a file at an absolute address (a storage provider) without sending it the jwt', async () => {
    const organizationId = await organizationWithCms(strapi.url);
    storage.calls.length = 0;
    const file = await openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] cloud.txt' });
    expect((await read(file.body)).toString()).toBe('from the cloud');
    expect(file.contentType).toBe('text/plain');
    expect(storage.calls).toEqual([expect.objectContaining({ path: new URL(storage.fileUrl('cloud.txt')).pathname, authorization: null })]);
  });

  it('answers NotFound for names the library does not have, and a 502 when the file cannot be read', async () => {
    const organizationId = await organizationWithCms(strapi.url);
    strapi.setFiles([{ name: 'logo.png', content: 'PNG-bytes', mime: 'image/png', updatedAt: UPDATED }]);
    for (const fileName of ['[ORG] nothing.png', 'logo.png', '[ORG]logo.png']) {
      expect((await failure(openOrganizationFile(server.deps, { organizationId, fileName }))).code, fileName).toBe('NotFound');
    }
    const plain = await createOrganization(server.deps.db);
    expect((await failure(openOrganizationFile(server.deps, { organizationId: plain.id, fileName: '[ORG] logo.png' }))).code).toBe('NotFound');
    try {
      strapi.failures.uploads = 'serverError';
      const failed = await failure(openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] logo.png' }));
      expect(failed.code).toBe('ExternalServiceError');
      expect(failed.message).toMatch(/HTTP 500/);
      strapi.failures.uploads = 'unreachable';
      expect((await failure(openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] logo.png' }))).code).toBe('ExternalServiceError');
    } finally {
      delete strapi.failures.uploads;
    }
    // A library file at an address Plinth may not fetch (an internal service) is never fetched.
    strapi.setFiles([{ name: 'secret.txt', content: 'x', url: 'http://127.0.0.1:9/latest/meta-data' }]);
    const refused = await failure(openOrganizationFile(server.deps, { organizationId, fileName: '[ORG] secret.txt' }));
    expect(refused.code).toBe('ExternalServiceError');
    expect(refused.message).toMatch(/not allowed/);
  });
});

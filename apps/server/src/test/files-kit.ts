import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { waitUntil } from './hardware-kit.js';
import { startTestS3, TEST_S3_BUCKET, TEST_S3_PREFIX } from './s3-server.js';
import type { TestClient, TestResponse } from './test-client.js';

/** Helpers of the exhibit files tests (modules/content): stores, uploads, downloads. */

/** A file store the files suite runs against: the server's environment for it, and a way to list its objects. */
export type TestStore = {
  env: Record<string, string>;
  /** The keys of the objects under `prefix` ('files/<exhibitId>/'), unfinished writes included. */
  objectKeys: (prefix: string) => Promise<string[]>;
  close: () => Promise<void>;
};

/** The default store: local disk under a fresh DATA_DIR. */
export async function startLocalStore(): Promise<TestStore> {
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'plinth-files-'));
  return {
    env: { DATA_DIR: dataDir },
    objectKeys: async (prefix) => {
      const dir = path.join(dataDir, 'store', ...prefix.split('/').filter(Boolean));
      const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
      return names.map((name) => `${prefix}${name}`);
    },
    close: () => fs.promises.rm(dataDir, { recursive: true, force: true }),
  };
}

/** The S3 store: s3rver (startTestS3); objects listed with ListObjectsV2 under the store's prefix. */
export async function startS3Store(): Promise<TestStore> {
  const s3 = await startTestS3();
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'plinth-files-s3-'));
  const client = new S3Client({
    endpoint: s3.env.S3_ENDPOINT,
    region: s3.env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
  });
  return {
    env: { ...s3.env, DATA_DIR: dataDir },
    objectKeys: async (prefix) => {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: TEST_S3_BUCKET, Prefix: `${TEST_S3_PREFIX}/${prefix}` }));
      return (listed.Contents ?? []).map((o) => o.Key!.slice(TEST_S3_PREFIX.length + 1));
    },
    close: async () => {
      client.destroy();
      await s3.close();
      await fs.promises.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type UploadFile = { name: string; content: string | Buffer; type?: string };

export const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

/** POST /content/files/upload with the files in the multipart field `file` (or `field`). */
export function upload(client: TestClient, where: { exhibitId: string; siteId: string }, files: UploadFile[], field = 'file'): Promise<TestResponse> {
  const form = new FormData();
  for (const file of files) form.append(field, new Blob([file.content], { type: file.type ?? 'application/octet-stream' }), file.name);
  return client.request('POST', `/content/files/upload?exhibitId=${where.exhibitId}&siteId=${where.siteId}`, form);
}

/** The URL of a file's download. */
export function downloadUrl(baseUrl: string, exhibitId: string, fileName: string): string {
  return `${baseUrl}/api/v1/content/files/?exhibitId=${exhibitId}&fileName=${encodeURIComponent(fileName)}`;
}

/**
 * A download with the client's session (or none) and extra headers: status, headers and the
 * bytes. On a connection of its own that closes after the answer: a kept-alive connection whose
 * streamed answer ends just after the test server starts closing would hold its close up for
 * Fastify's keep-alive timeout (72 s).
 */
export async function download(url: string, headers: Record<string, string> = {}, client?: TestClient, method = 'GET') {
  const cookie = client?.cookieHeader ? { cookie: client.cookieHeader } : {};
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.request(url, { method, agent: false, headers: { ...headers, ...cookie } }, resolve).on('error', reject).end();
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
  return { status: res.statusCode!, headers: responseHeaders, body: Buffer.concat(chunks) };
}

/** `Authorization: Basic` with an exhibit's id and token. */
export function basicAuth(exhibitId: string, token: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${exhibitId}:${token}`).toString('base64')}` };
}

/**
 * Starts a multipart upload whose first file (`complete`) is sent whole and whose second is cut
 * off: once the server has stored the first one (`stored` says so), the request is destroyed
 * in the middle of the second.
 */
export async function abortUploadMidway(
  client: TestClient,
  upload: { exhibitId: string; siteId: string; complete: UploadFile; cut: string; stored: () => Promise<boolean> },
): Promise<void> {
  const boundary = `----plinth${Date.now()}`;
  const url = new URL(`${client.baseUrl}/api/v1/content/files/upload?exhibitId=${upload.exhibitId}&siteId=${upload.siteId}`);
  const request = http.request(url, {
    method: 'POST',
    headers: { cookie: client.cookieHeader, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  request.on('error', () => undefined);
  const head = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`;
  request.write(head(upload.complete.name));
  request.write(upload.complete.content);
  request.write(`\r\n${head(upload.cut)}`);
  request.write(Buffer.alloc(64 * 1024, 'x'));
  await waitUntil(upload.stored, 'the first file of the upload stored');
  request.destroy();
}

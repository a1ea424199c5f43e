import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startTestS3, TEST_S3_BUCKET, TEST_S3_PREFIX } from '../test/s3-server.js';
import { createFileStore, createLocalFileStore, type FileStore } from './file-store.js';
import { createS3FileStore } from './file-store-s3.js';

const MIB = 1024 * 1024;

/** A store under test, and every key really present in its backing storage (to see leftovers). */
type StoreUnderTest = { store: FileStore; storedKeys: () => Promise<string[]>; close: () => Promise<void> };

async function startLocal(): Promise<StoreUnderTest> {
  const root = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'plinth-store-'));
  return {
    store: createLocalFileStore(root),
    storedKeys: async () => {
      const entries = await fs.promises.readdir(root, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    },
    close: () => fs.promises.rm(root, { recursive: true, force: true }),
  };
}

async function startS3(): Promise<StoreUnderTest> {
  const s3 = await startTestS3();
  const settings = loadConfig(s3.env).fileStore;
  if (settings.kind !== 's3') throw new Error('the test S3 env should configure an S3 store');
  // Listing pages of 2 keys, so that removePrefix has to follow continuation tokens.
  const store = createS3FileStore({ ...settings, listPageSize: 2 });
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: true,
    credentials: settings.credentials,
  });
  return {
    store,
    storedKeys: async () => {
      const page = await client.send(new ListObjectsV2Command({ Bucket: TEST_S3_BUCKET }));
      return (page.Contents ?? []).map((o) => o.Key!.replace(`${TEST_S3_PREFIX}/`, ''));
    },
    close: async () => {
      client.destroy();
      await s3.close();
    },
  };
}

/** `bytes` as a stream of 64 KiB chunks, optionally failing after `failAfter` bytes. */
function streamOf(bytes: Buffer, options: { failAfter?: number; truncated?: boolean } = {}): Readable {
  let offset = 0;
  const stream = new Readable({
    read() {
      if (options.failAfter !== undefined && offset >= options.failAfter) {
        this.destroy(new Error('the client went away'));
        return;
      }
      if (offset >= bytes.length) {
        if (options.truncated) Object.assign(this, { truncated: true });
        this.push(null);
        return;
      }
      this.push(bytes.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
  return stream;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each([
  { name: 'local disk', start: startLocal },
  { name: 'S3 (s3rver)', start: startS3 },
])('file store contract: $name', ({ start }) => {
  let subject: StoreUnderTest;
  let store: FileStore;
  beforeAll(async () => {
    subject = await start();
    store = subject.store;
  });
  afterAll(() => subject?.close());

  it('stores a file and answers its size and SHA-256, all of it or byte ranges', async () => {
    const content = Buffer.from('Hello, exhibit! 0123456789');
    expect(await store.put('files/ex1/hello', streamOf(content))).toEqual({ size: content.length, sha256: sha256(content) });
    expect(await bytesOf(await store.get('files/ex1/hello'))).toEqual(content);
    expect((await bytesOf(await store.get('files/ex1/hello', { start: 7, end: 13 }))).toString()).toBe('exhibit');
    expect((await bytesOf(await store.get('files/ex1/hello', { start: content.length - 1, end: content.length - 1 }))).toString()).toBe('9');
    expect(await store.stat('files/ex1/hello')).toEqual({ size: content.length });
  });

  it('stores an empty file', async () => {
    expect(await store.put('files/ex1/empty', streamOf(Buffer.alloc(0)))).toEqual({ size: 0, sha256: sha256(Buffer.alloc(0)) });
    expect(await store.stat('files/ex1/empty')).toEqual({ size: 0 });
    expect(await bytesOf(await store.get('files/ex1/empty'))).toHaveLength(0);
  });

  it('answers null and NotFound for a missing object, and refuses keys that are not safe paths', async () => {
    expect(await store.stat('files/ex1/missing')).toBeNull();
    await expect(store.get('files/ex1/missing')).rejects.toMatchObject({ code: 'NotFound', status: 404 });
    await expect(store.put('files/../etc', streamOf(Buffer.from('x')))).rejects.toThrow(/Not a file store key/);
    await expect(store.get('/abs')).rejects.toThrow(/Not a file store key/);
  });

  it('replaces an object, and removes it (twice is no error)', async () => {
    await store.put('files/ex2/a', streamOf(Buffer.from('first')));
    await store.put('files/ex2/a', streamOf(Buffer.from('second version')));
    expect((await bytesOf(await store.get('files/ex2/a'))).toString()).toBe('second version');
    await store.remove('files/ex2/a');
    await store.remove('files/ex2/a');
    expect(await store.stat('files/ex2/a')).toBeNull();
  });

  it('removes every object under a prefix and nothing beside it', async () => {
    for (const name of ['1', '2', '3', '4', '5']) await store.put(`files/ex3/${name}`, streamOf(Buffer.from(name)));
    await store.put('files/ex3x/keep', streamOf(Buffer.from('keep')));
    await store.put('files/ex3-file', streamOf(Buffer.from('keep too')));
    await store.removePrefix('files/ex3/');
    const keys = await subject.storedKeys();
    expect(keys.filter((k) => k.startsWith('files/ex3/'))).toEqual([]);
    expect(keys).toEqual(expect.arrayContaining(['files/ex3x/keep', 'files/ex3-file']));
    await store.removePrefix('files/nothing-here/');
  });

  it('refuses a file over the limit with 413, leaving nothing and keeping the previous version and other keys', async () => {
    await store.put('files/ex4/video', streamOf(Buffer.from('previous version')));
    await store.put('files/ex4/other', streamOf(Buffer.from('another file')));
    const before = await subject.storedKeys();
    // Small (one request) and large (a multipart upload already under way when the limit is passed).
    for (const [size, maxBytes] of [
      [100, 10],
      [13 * MIB, 6 * MIB],
    ] as const) {
      await expect(store.put('files/ex4/video', streamOf(randomBytes(size)), { maxBytes })).rejects.toMatchObject({
        code: 'PayloadTooLarge',
        status: 413,
        message: expect.stringMatching(/larger than the limit of/),
      });
      await expect(store.put('files/ex4/new', streamOf(randomBytes(size)), { maxBytes })).rejects.toMatchObject({ status: 413 });
    }
    expect((await bytesOf(await store.get('files/ex4/video'))).toString()).toBe('previous version');
    expect((await bytesOf(await store.get('files/ex4/other'))).toString()).toBe('another file');
    expect(await store.stat('files/ex4/new')).toBeNull();
    expect((await subject.storedKeys()).sort()).toEqual(before.sort());
  });

  it('refuses a multipart file stream cut at the multipart limit (truncated) with 413 and stores nothing', async () => {
    await expect(store.put('files/ex5/cut', streamOf(Buffer.from('cut short'), { truncated: true }), { maxBytes: 100 })).rejects.toMatchObject({
      status: 413,
    });
    expect(await store.stat('files/ex5/cut')).toBeNull();
  });

  it('leaves nothing when the stream fails midway, and keeps the previous version', async () => {
    await store.put('files/ex6/doc', streamOf(Buffer.from('kept')));
    const before = await subject.storedKeys();
    for (const [size, failAfter] of [
      [MIB, 256 * 1024],
      [16 * MIB, 11 * MIB],
    ] as const) {
      await expect(store.put('files/ex6/doc', streamOf(randomBytes(size), { failAfter }))).rejects.toThrow('the client went away');
      await expect(store.put('files/ex6/fresh', streamOf(randomBytes(size), { failAfter }))).rejects.toThrow('the client went away');
    }
    expect((await bytesOf(await store.get('files/ex6/doc'))).toString()).toBe('kept');
    expect((await subject.storedKeys()).sort()).toEqual(before.sort());
  });

  it('stores two files at once under different keys', async () => {
    const one = randomBytes(7 * MIB);
    const two = randomBytes(6 * MIB + 123);
    const [a, b] = await Promise.all([store.put('files/ex7/one', streamOf(one)), store.put('files/ex7/two', streamOf(two))]);
    expect(a).toEqual({ size: one.length, sha256: sha256(one) });
    expect(b).toEqual({ size: two.length, sha256: sha256(two) });
    expect(sha256(await bytesOf(await store.get('files/ex7/one')))).toBe(sha256(one));
    expect(sha256(await bytesOf(await store.get('files/ex7/two')))).toBe(sha256(two));
  });

  it('round-trips a 20 MB file byte for byte, and ranges across its parts', async () => {
    const content = randomBytes(20 * 1000 * 1000);
    expect(await store.put('files/ex8/big', streamOf(content), { maxBytes: 2 * 1024 * MIB })).toEqual({
      size: content.length,
      sha256: sha256(content),
    });
    expect((await bytesOf(await store.get('files/ex8/big'))).equals(content)).toBe(true);
    const boundary = 5 * MIB;
    const across = await bytesOf(await store.get('files/ex8/big', { start: boundary - 10, end: boundary + 9 }));
    expect(across.equals(content.subarray(boundary - 10, boundary + 10))).toBe(true);
    const tail = await bytesOf(await store.get('files/ex8/big', { start: content.length - 1000, end: content.length - 1 }));
    expect(tail.equals(content.subarray(content.length - 1000))).toBe(true);
    expect(await store.stat('files/ex8/big')).toEqual({ size: content.length });
  });
});

describe('createFileStore', () => {
  it('chooses local disk under DATA_DIR/store by default, and S3 for an s3:// FILE_STORE_URL', async () => {
    const local = await createFileStore(loadConfig({ DATA_DIR: '/srv/plinth' }).fileStore);
    expect(local.description).toBe('local disk /srv/plinth/store');
    const s3 = await createFileStore(
      loadConfig({ FILE_STORE_URL: 's3://media/plinth/prod', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).fileStore,
    );
    expect(s3.description).toBe('s3://media/plinth/prod/ at http://127.0.0.1:9000');
    const withUser = await createFileStore(loadConfig({ FILE_STORE_URL: 's3://media', S3_ENDPOINT: 'https://user:pw@s3.example.org' }).fileStore);
    expect(withUser.description).toBe('s3://media/ at https://s3.example.org');
  });
});

describe('S3 store against a store without DeleteObjects', () => {
  it('removes a prefix one object at a time when the batch delete is refused', async () => {
    const s3 = await startTestS3();
    const target = new URL(s3.env.S3_ENDPOINT!);
    const refused: string[] = [];
    // In front of s3rver: answers 501 to DeleteObjects (POST ?delete), passes everything else on.
    const proxy = http.createServer((req, res) => {
      if (req.method === 'POST' && /[?&]delete(=|&|$)/.test(req.url ?? '')) {
        refused.push(req.url ?? '');
        req.resume();
        res.writeHead(501, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NotImplemented</Code><Message>no batch delete</Message></Error>');
        return;
      }
      const forward = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const settings = loadConfig({ ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` }).fileStore;
      const store = await createFileStore(settings);
      for (const name of ['a', 'b', 'c']) await store.put(`files/ex9/${name}`, streamOf(Buffer.from(name)));
      await store.put('files/ex10/keep', streamOf(Buffer.from('keep')));
      await store.removePrefix('files/ex9/');
      await store.removePrefix('files/ex9/');
      expect(refused).toHaveLength(1);
      expect(await Promise.all(['a', 'b', 'c'].map((n) => store.stat(`files/ex9/${n}`)))).toEqual([null, null, null]);
      expect(await store.stat('files/ex10/keep')).toEqual({ size: 4 });
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
      await s3.close();
    }
  });
});

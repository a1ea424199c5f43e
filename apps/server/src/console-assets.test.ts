import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE_ASSET } from './app.js';
import { startTestServer, type TestServer } from './test/test-server.js';

/**
 * The built console as the server sends it (issue 17): the build's Brotli and gzip copies to
 * browsers that accept them (apps/web/precompress.ts writes them), hashed assets cached for a
 * year, index.html asked again each visit.
 */
let server: TestServer;
let dist: string;
const script = `console.log(${JSON.stringify('plinth '.repeat(400))});\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<!-- console -->'.repeat(100)}</body></html>`;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-web-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(dist, name), text);
    fs.writeFileSync(path.join(dist, `${name}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(dist, `${name}.gz`), zlib.gzipSync(text));
  };
  write('assets/index-abc123.js', script);
  write('index.html', html);
  server = await startTestServer({ WEB_DIST: dist });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** Fetches without letting fetch decode the body, so the bytes on the wire can be checked. */
function get(url: string, encodings: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(server.url + url, { headers: { 'accept-encoding': encodings } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the built console', () => {
  it('sends a hashed asset as Brotli, gzip or plain by what the browser accepts, cached for a year', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe(IMMUTABLE_ASSET);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.body.length).toBeLessThan(script.length / 5);

    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE_ASSET);

    const plain = await get('/assets/index-abc123.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE_ASSET);
  });

  it('sends index.html for the console’s routes, compressed, never cached without asking again', async () => {
    for (const url of ['/', '/organization/x/site/y/hardware']) {
      const res = await get(url, 'br');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(res.body).toString()).toBe(html);
      expect(res.headers['cache-control']).not.toContain('immutable');
      expect(res.headers['cache-control']).toMatch(/no-cache|max-age=0/);
    }
  });
});

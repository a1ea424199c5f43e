// Large files for the files benchmark, never held in memory: synthetic content generated as it is
// sent, a streamed multipart upload (POST /content/files/upload) and a streamed, hashed download.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const CHUNK = 1024 * 1024;
/** 4 MiB of random bytes, drawn once; every chunk is a slice of it at an offset of its own. */
const POOL = randomBytes(4 * CHUNK);

/** One synthetic file: `size` bytes, its content set by `seed` (same seed and size, same bytes). */
export type SyntheticFile = { name: string; size: number; seed: number };

/**
 * The content of a synthetic file, in chunks of 1 MiB: slices of a random pool at offsets that
 * depend on the chunk's rank and the seed, so the bytes do not compress, no two neighbouring
 * chunks are the same, and nothing is generated per byte (the sender's CPU goes to hashing and
 * sending, not to making data).
 */
export function* syntheticChunks(file: Pick<SyntheticFile, 'size' | 'seed'>): Generator<Buffer> {
  const span = POOL.length - CHUNK;
  for (let sent = 0, i = 0; sent < file.size; i++) {
    const length = Math.min(CHUNK, file.size - sent);
    // 64-byte steps over the pool; the multipliers are primes so sequences of different seeds differ.
    const offset = (((i + 1) * 7919 + file.seed * 104_729) * 64) % span;
    yield POOL.subarray(offset, offset + length);
    sent += length;
  }
}

export type UploadResult = {
  status: number;
  /** The answer's body (JSON text). */
  body: string;
  bytes: number;
  seconds: number;
  /** SHA-256 (hex) of each file's bytes as they were sent, by name. */
  sha256: Map<string, string>;
};

/** `multipart/form-data` part header of one file in field `file`. */
function partHeader(boundary: string, name: string): string {
  const quoted = name.replace(/"/g, '%22');
  return `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

/**
 * Uploads synthetic files in one multipart request (field `file`, one part each) to `url`, with
 * a Content-Length, streaming: each chunk is made, hashed and written as the socket takes it.
 * Answers when the server has answered.
 */
export async function uploadSynthetic(options: { url: string; headers: Record<string, string>; files: SyntheticFile[] }): Promise<UploadResult> {
  const boundary = `----plinth-bench-${randomBytes(8).toString('hex')}`;
  const closing = `--${boundary}--\r\n`;
  const bytes = options.files.reduce((n, f) => n + Buffer.byteLength(partHeader(boundary, f.name)) + f.size + 2, 0) + closing.length;
  const sha256 = new Map<string, string>();
  function* body(): Generator<Buffer> {
    for (const file of options.files) {
      yield Buffer.from(partHeader(boundary, file.name));
      const hash = createHash('sha256');
      for (const chunk of syntheticChunks(file)) {
        hash.update(chunk);
        yield chunk;
      }
      sha256.set(file.name, hash.digest('hex'));
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(closing);
  }
  const started = performance.now();
  const request = http.request(options.url, {
    method: 'POST',
    headers: { ...options.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(bytes) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.once('error', reject);
    });
    request.once('error', reject);
  });
  // The server may answer (an error) before it has read the whole body: the answer is what counts.
  const sent = pipeline(Readable.from(body(), { objectMode: false }), request).catch(() => undefined);
  const answer = await answered;
  await sent;
  return { ...answer, bytes, seconds: (performance.now() - started) / 1000, sha256 };
}

export type DownloadResult = { status: number; bytes: number; seconds: number; sha256: string };

/** Downloads `url` streaming, counting and hashing the bytes (nothing is kept). */
export async function downloadHashed(options: { url: string; headers: Record<string, string> }): Promise<DownloadResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(options.url, { headers: options.headers }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes, seconds: (performance.now() - started) / 1000, sha256: hash.digest('hex') }),
      );
      res.once('error', reject);
    });
    request.once('error', reject);
  });
}

/** MB (10^6 bytes) a second, one decimal. */
export function megabytesPerSecond(bytes: number, seconds: number): string {
  return `${(bytes / 1e6 / seconds).toFixed(1)} MB/s`;
}

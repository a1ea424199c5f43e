import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The bucket the test store creates, and the prefix the server is configured with inside it. */
export const TEST_S3_BUCKET = 'plinth-test';
export const TEST_S3_PREFIX = 'plinth';

/** s3rver's built-in account: it checks SigV4 signatures against this key pair. */
const ACCESS_KEY = 'S3RVER';

/**
 * Runs in the child: s3rver on an ephemeral port, the bucket created, the port printed as the
 * first line; it stops when the parent closes its stdin (or dies).
 */
const CHILD = `
const S3rver = require(process.env.S3RVER_MAIN);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: process.env.S3RVER_DIR,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
server.run().then(
  (address) => process.stdout.write(JSON.stringify({ port: address.port }) + '\\n'),
  (error) => { console.error(error); process.exit(1); },
);
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
`;

export type TestS3 = {
  /** The server configuration that stores files in this S3 server (pass it to startTestServer). */
  env: Record<string, string>;
  /** Where s3rver keeps the bucket on disk (objects, and multipart parts it cannot abort). */
  directory: string;
  close: () => Promise<void>;
};

/**
 * A real S3-compatible server for tests: s3rver (S3's REST API with SigV4 checks, objects on
 * disk) in a child process, on an ephemeral port, over a temporary directory removed on close.
 * It runs with --openssl-legacy-provider because s3rver makes ListObjectsV2 continuation tokens
 * with DES, which OpenSSL 3 otherwise refuses (so a listing of more keys than a page failed).
 */
export async function startTestS3(): Promise<TestS3> {
  const directory = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'plinth-s3-'));
  const { NODE_OPTIONS: _ignored, ...parentEnv } = process.env;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', CHILD], {
    env: {
      ...parentEnv,
      S3RVER_MAIN: createRequire(import.meta.url).resolve('s3rver'),
      S3RVER_DIR: directory,
      S3RVER_BUCKET: TEST_S3_BUCKET,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const port = await firstLinePort(child);
    return {
      env: {
        FILE_STORE_URL: `s3://${TEST_S3_BUCKET}/${TEST_S3_PREFIX}`,
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      },
      directory,
      close: async () => {
        child.stdin.end();
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
        await fs.promises.rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    await fs.promises.rm(directory, { recursive: true, force: true });
    throw new Error(`s3rver did not start: ${(error as Error).message}\n${stderr}`);
  }
}

/** The port the child prints first; rejects when it exits or says nothing for 20 s. */
function firstLinePort(child: ChildProcessWithoutNullStreams): Promise<number> {
  const lines = createInterface({ input: child.stdout });
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no port after 20 s')), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      child.stdout.resume();
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`it exited with ${code}`));
    });
  });
}

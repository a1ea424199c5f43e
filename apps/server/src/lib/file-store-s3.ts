import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AppError } from './app-error.js';
import { checkStoreKey, checkStorePrefix, createMeter, type ByteRange, type FileStore, type PutOptions, type StoredObject } from './file-store-contract.js';

/** An S3-compatible object store: FILE_STORE_URL=s3://bucket/prefix with the S3_* settings. */
export type S3FileStoreSettings = {
  bucket: string;
  /** Put before every key: '' or safe segments ending with '/'. */
  prefix: string;
  region: string;
  /** A non-AWS store's address (e.g. http://127.0.0.1:9000); unset, AWS S3 itself. */
  endpoint?: string;
  /** Static keys; unset, the AWS default chain (environment, shared files, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style addressing (endpoint/bucket/key) instead of a bucket host name. */
  forcePathStyle: boolean;
  /** Keys asked per listing page in removePrefix: S3's maximum, 1000, unless a test asks fewer. */
  listPageSize?: number;
};

const MIB = 1024 * 1024;
/** S3's smallest part (all but the last) and its most parts per upload. */
const MIN_PART_BYTES = 5 * MIB;
const MAX_PARTS = 10_000;
/** Parts sent at once; with the part being filled, memory per upload is about (QUEUE + 1) parts. */
const QUEUE_SIZE = 4;

type Target = { client: S3Client; bucket: string };

/**
 * Files in an S3-compatible object store. put streams through the meter into a multipart
 * upload (one PutObject for a file smaller than a part), holding a few parts in memory, never the
 * file; the object appears only when the upload completes, so a failed or over-limit upload
 * leaves the previous object under that key as it was, and its parts are aborted.
 */
export function createS3FileStore(settings: S3FileStoreSettings): FileStore {
  const target: Target = { client: createClient(settings), bucket: settings.bucket };
  const objectKey = (key: string) => settings.prefix + checkStoreKey(key);
  const pageSize = settings.listPageSize ?? 1000;
  const deletes = { batch: true };
  return {
    // Without any user:password an endpoint URL might carry: the description is logged.
    description: `s3://${settings.bucket}/${settings.prefix}${settings.endpoint ? ` at ${settings.endpoint.replace(/\/\/[^/@]*@/, '//')}` : ''}`,
    put: async (key, content, options = {}) => putObject(target, { key: objectKey(key), content, options }),
    get: async (key, range) => getObject(target, objectKey(key), range),
    stat: async (key) => {
      try {
        const head = await target.client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: objectKey(key) }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },
    remove: async (key) => {
      await target.client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: objectKey(key) }));
    },
    removePrefix: async (prefix) => {
      const full = settings.prefix + checkStorePrefix(prefix);
      let token: string | undefined;
      do {
        const page = await target.client.send(
          new ListObjectsV2Command({ Bucket: target.bucket, Prefix: full, MaxKeys: pageSize, ContinuationToken: token }),
        );
        await deleteKeys(target, { keys: (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])), deletes });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

function createClient(settings: S3FileStoreSettings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // The SDK's default CRC32 checksums (since 3.729) are refused by several S3-compatible
    // stores; the meter's SHA-256 is Plinth's own check of what was stored.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Every download streaming to a client holds a connection while it lasts.
    requestHandler: {
      connectionTimeout: 10_000,
      httpAgent: { keepAlive: true, maxSockets: 256 },
      httpsAgent: { keepAlive: true, maxSockets: 256 },
    },
  });
}

/** The part size that keeps an object of `maxBytes` within S3's 10,000 parts. */
function partSizeFor(maxBytes: number | undefined): number {
  if (maxBytes === undefined || !Number.isFinite(maxBytes)) return 8 * MIB;
  return Math.max(MIN_PART_BYTES, Math.ceil(maxBytes / MAX_PARTS / MIB) * MIB);
}

async function putObject(target: Target, input: { key: string; content: Readable; options: PutOptions }): Promise<StoredObject> {
  const { key, content, options } = input;
  const meter = createMeter(options.maxBytes, content);
  const upload = new Upload({
    client: target.client,
    params: { Bucket: target.bucket, Key: key, Body: meter, ContentType: options.contentType },
    partSize: partSizeFor(options.maxBytes),
    queueSize: QUEUE_SIZE,
    // Aborted here instead, so that a store without AbortMultipartUpload cannot hide the real error.
    leavePartsOnError: true,
  });
  const uploaded = upload.done().catch((error: unknown) => {
    // The upload stopped reading: end the stream so the pipeline does not wait for it.
    meter.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  });
  // The pipeline's error first: the limit, or the client's stream failing.
  const settled = await Promise.allSettled([pipeline(content, meter), uploaded]);
  const reasons = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (reasons.length > 0) {
    if (upload.uploadId) {
      // Best effort: a store without it (s3rver) keeps the parts, but never an object.
      await target.client
        .send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: key, UploadId: upload.uploadId }))
        .catch(() => undefined);
    }
    // An upload that stopped reading closes the stream early: report why it stopped, not the close.
    throw reasons.find((e) => (e as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') ?? reasons[0];
  }
  return meter.result();
}

async function getObject(target: Target, key: string, range?: ByteRange): Promise<Readable> {
  try {
    const object = await target.client.send(
      new GetObjectCommand({ Bucket: target.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    if (!(object.Body instanceof Readable)) throw new Error('The object store answered no stream.');
    return object.Body;
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) throw new AppError('NotFound', 'The file is not in the store.');
    // A range past the end: no bytes, as the local store answers.
    if (status === 416) return Readable.from([], { objectMode: false });
    throw error;
  }
}

/**
 * Deletes `keys` with DeleteObjects (1000 at a time), or one by one on a store that refuses it
 * (some want a Content-MD5 the SDK no longer sends); `deletes.batch` remembers the refusal.
 */
async function deleteKeys(target: Target, input: { keys: string[]; deletes: { batch: boolean } }): Promise<void> {
  const { keys, deletes } = input;
  for (let i = 0; i < keys.length && deletes.batch; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    try {
      const answer = await target.client.send(
        new DeleteObjectsCommand({ Bucket: target.bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) throw new Error(`The object store kept ${failed.length} object(s): ${failed[0]?.Code ?? ''} ${failed[0]?.Message ?? ''}`);
    } catch (error) {
      if (![400, 405, 501].includes(statusOf(error) ?? 0)) throw error;
      deletes.batch = false;
    }
  }
  if (deletes.batch) return;
  for (const key of keys) await target.client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }));
}

/** The HTTP status of an S3 error, when it has one. */
function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

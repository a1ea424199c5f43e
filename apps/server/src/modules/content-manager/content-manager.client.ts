import { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { OutboundError, type OutboundFetch } from '../../lib/outbound-fetch.js';

/**
 * The HTTP calls Plinth makes to the organization's external content manager (Strapi), all
 * through the outbound client (its address rules: no loopback, metadata or, unless
 * OUTBOUND_ALLOW_PRIVATE, private addresses). Every failure is an `ExternalServiceError` (502)
 * with a readable message, never a 500 and never a wait beyond CONTENT_MANAGER_TIMEOUT_MS.
 */

/** How long Plinth waits for the content manager's answer (its headers, for a file) before answering 502. */
export const CONTENT_MANAGER_TIMEOUT_MS = 5_000;

const AdminLoginAnswer = z.object({ data: z.object({ token: z.string().min(1), user: z.unknown() }) });
const LocalAuthAnswer = z.object({ jwt: z.string().min(1) });

/** A content-manager user's sign-in: the configured URL, the user and the password. */
export type StrapiSignIn = { url: string; user: string; password: string };

/** A failed call to the content manager; `upstreamStatus` is its HTTP status when it answered one. */
export class ContentManagerError extends AppError {
  constructor(
    message: string,
    readonly upstreamStatus: number | null = null,
  ) {
    super('ExternalServiceError', message);
  }
}

/** Signs in to the Strapi admin panel (POST {url}/admin/login); answers the admin user and token. */
export async function strapiAdminLogin(outbound: OutboundFetch, signIn: StrapiSignIn): Promise<{ user: unknown; token: string }> {
  const body = { email: signIn.user, password: signIn.password };
  const answer = await postJson(outbound, { url: `${signIn.url}/admin/login`, body }, AdminLoginAnswer);
  return { user: answer.data.user ?? null, token: answer.data.token };
}

/** Signs in a Strapi API user (POST {url}/api/auth/local); answers its jwt. */
export async function strapiLocalAuth(outbound: OutboundFetch, signIn: StrapiSignIn): Promise<{ jwt: string }> {
  const body = { identifier: signIn.user, password: signIn.password };
  const answer = await postJson(outbound, { url: `${signIn.url}/api/auth/local`, body }, LocalAuthAnswer);
  return { jwt: answer.jwt };
}

/** A read of the content manager's REST API with the API user's jwt. */
export type StrapiGet = { url: string; jwt: string };

/** GETs JSON from the content manager's REST API with the bearer jwt and checks its shape. */
export async function strapiGetJson<T extends z.ZodType>(outbound: OutboundFetch, get: StrapiGet, schema: T): Promise<z.infer<T>> {
  const response = await read(outbound, get.url, {
    method: 'GET',
    headers: { accept: 'application/json', authorization: `Bearer ${get.jwt}` },
    timeoutMs: CONTENT_MANAGER_TIMEOUT_MS,
  });
  if (!response.ok) throw new ContentManagerError(`The content manager answered HTTP ${response.status}.`, response.status);
  return parseAnswer(response, schema);
}

/** A file's bytes as the content manager (or its storage provider) serves them. */
export type StrapiFileAnswer = {
  status: number;
  headers: Headers;
  /** The body, streaming; null for an answer without one. */
  body: Readable | null;
};

/**
 * GETs a file, streaming (never buffered): `range` goes as the HTTP Range header. The jwt goes
 * only to the content manager itself (`withJwt`), not to a storage provider's address. Any
 * status but 200 and 206 rejects (the body is discarded).
 */
export async function strapiGetFile(
  outbound: OutboundFetch,
  get: { url: string; jwt: string | null; range?: string },
): Promise<StrapiFileAnswer> {
  const headers: Record<string, string> = { accept: '*/*' };
  if (get.jwt) headers.authorization = `Bearer ${get.jwt}`;
  if (get.range) headers.range = get.range;
  const response = await read(outbound, get.url, { method: 'GET', headers, timeoutMs: CONTENT_MANAGER_TIMEOUT_MS, stream: true });
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel().catch(() => undefined);
    throw new ContentManagerError(`The content manager answered HTTP ${response.status} for the file.`, response.status);
  }
  const body = response.body ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>) : null;
  return { status: response.status, headers: response.headers, body };
}

/**
 * POSTs JSON through the outbound client (its address rules answer their own 400/502). A redirect
 * is followed only when it drops the body, so the passwords never go to another address.
 */
async function postJson<T extends z.ZodType>(
  outbound: OutboundFetch,
  { url, body }: { url: string; body: unknown },
  schema: T,
): Promise<z.infer<T>> {
  const response = await send(outbound, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: CONTENT_MANAGER_TIMEOUT_MS,
  });
  if (!response.ok) throw new ContentManagerError(`The content manager refused the sign-in (HTTP ${response.status}).`, response.status);
  return parseAnswer(response, schema);
}

/** One request; the outbound client's failures worded for the content manager. */
async function send(outbound: OutboundFetch, url: string, request: Parameters<OutboundFetch>[1]): Promise<Response> {
  try {
    return await outbound(url, request);
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const messages: Record<OutboundError['reason'], string> = {
      timeout: `The content manager did not answer within ${CONTENT_MANAGER_TIMEOUT_MS / 1000} seconds.`,
      unreachable: 'The content manager could not be reached.',
      redirects: `The content manager did not answer as expected: ${error.message}`,
      'too-large': `The content manager did not answer as expected: ${error.message}`,
    };
    throw new ContentManagerError(messages[error.reason]);
  }
}

/**
 * A read (GET) of the content manager. An address the outbound rules refuse is the content
 * manager's doing here (the configured URL passed at sign-in; a file's address comes from its
 * library), so it is a ContentManagerError, not the caller's 400.
 */
async function read(outbound: OutboundFetch, url: string, request: Parameters<OutboundFetch>[1]): Promise<Response> {
  try {
    return await send(outbound, url, request);
  } catch (error) {
    if (error instanceof AppError && error.code === 'ValidationError') throw new ContentManagerError(error.message);
    throw error;
  }
}

async function parseAnswer<T extends z.ZodType>(response: Response, schema: T): Promise<z.infer<T>> {
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ContentManagerError('The content manager did not answer with JSON.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ContentManagerError('The content manager answered in an unexpected shape.');
  return parsed.data;
}

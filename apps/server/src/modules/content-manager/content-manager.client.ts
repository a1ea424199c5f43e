import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { OutboundError, type OutboundFetch } from '../../lib/outbound-fetch.js';

/** How long Plinth waits for the external content manager (Strapi) before answering 502. */
export const CONTENT_MANAGER_TIMEOUT_MS = 10_000;

const AdminLoginAnswer = z.object({ data: z.object({ token: z.string().min(1), user: z.unknown() }) });
const LocalAuthAnswer = z.object({ jwt: z.string().min(1) });

/** A content-manager user's sign-in: the configured URL, the user and the password. */
export type StrapiSignIn = { url: string; user: string; password: string };

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

/**
 * POSTs JSON through the outbound client (its address rules answer their own 400/502). A redirect
 * is followed only when it drops the body, so the passwords never go to another address.
 */
async function postJson<T extends z.ZodType>(
  outbound: OutboundFetch,
  { url, body }: { url: string; body: unknown },
  schema: T,
): Promise<z.infer<T>> {
  let response: Response;
  try {
    response = await outbound(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: CONTENT_MANAGER_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const messages: Record<OutboundError['reason'], string> = {
      timeout: `The content manager did not answer within ${CONTENT_MANAGER_TIMEOUT_MS / 1000} seconds.`,
      unreachable: 'The content manager could not be reached.',
      redirects: `The content manager did not answer as expected: ${error.message}`,
      'too-large': `The content manager did not answer as expected: ${error.message}`,
    };
    const message = messages[error.reason];
    throw new AppError('ExternalServiceError', message);
  }
  if (!response.ok) {
    throw new AppError('ExternalServiceError', `The content manager refused the sign-in (HTTP ${response.status}).`);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new AppError('ExternalServiceError', 'The content manager did not answer with JSON.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AppError('ExternalServiceError', 'The content manager answered in an unexpected shape.');
  return parsed.data;
}

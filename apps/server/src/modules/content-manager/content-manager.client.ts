import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';

/** How long Plinth waits for the external content manager (Strapi) before answering 502. */
export const CONTENT_MANAGER_TIMEOUT_MS = 10_000;

const AdminLoginAnswer = z.object({ data: z.object({ token: z.string().min(1), user: z.unknown() }) });
const LocalAuthAnswer = z.object({ jwt: z.string().min(1) });

/** Signs in to the Strapi admin panel (POST {url}/admin/login); answers the admin user and token. */
export async function strapiAdminLogin(
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ user: unknown; token: string }> {
  const answer = await postJson(`${baseUrl}/admin/login`, { email, password }, AdminLoginAnswer);
  return { user: answer.data.user ?? null, token: answer.data.token };
}

/** Signs in a Strapi API user (POST {url}/api/auth/local); answers its jwt. */
export async function strapiLocalAuth(baseUrl: string, identifier: string, password: string): Promise<{ jwt: string }> {
  const answer = await postJson(`${baseUrl}/api/auth/local`, { identifier, password }, LocalAuthAnswer);
  return { jwt: answer.jwt };
}

async function postJson<T extends z.ZodType>(url: string, body: unknown, schema: T): Promise<z.infer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(CONTENT_MANAGER_TIMEOUT_MS),
    });
  } catch {
    throw new AppError('ExternalServiceError', 'The content manager could not be reached.');
  }
  if (!response.ok) {
    await response.body?.cancel();
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

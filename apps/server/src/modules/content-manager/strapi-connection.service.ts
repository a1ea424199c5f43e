import { createHash } from 'node:crypto';
import { SETTING_IDS, STRAPI_MESSAGES, type ContentManagerConfig } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { findSettingRow } from '../settings/settings.repository.js';
import { openContentManagerConfig } from './content-manager-config.service.js';
import { ContentManagerError, strapiLocalAuth } from './content-manager.client.js';

/**
 * Reading the organization's content manager as its API user: the configured URL and a jwt from
 * POST {url}/api/auth/local. Failures carry the spec's messages (section 8) and a
 * machine-readable `details.reason` the console words them by.
 */

/** Which of the spec's content-service messages a failure is (STRAPI_MESSAGES). */
export type StrapiFailureReason = 'noUrl' | 'noJwt' | 'options';

/** The `details` of a content-manager failure; `cause` says what went wrong, for the person who set it up. */
export type StrapiFailureDetails = { reason: StrapiFailureReason; organizationId: string; cause?: string };

/**
 * The error of a failed content-manager read: no URL configured is a 400, no jwt and a failed
 * read a 502, each with the spec's message.
 */
export function strapiFailure(failure: StrapiFailureDetails & { contentType?: string }): AppError {
  const { reason, organizationId, cause, contentType } = failure;
  const details: StrapiFailureDetails = { reason, organizationId, ...(cause ? { cause } : {}) };
  if (reason === 'noUrl') return new AppError('ValidationError', STRAPI_MESSAGES.noUrl, { details });
  const message = reason === 'noJwt' ? STRAPI_MESSAGES.noJwt : STRAPI_MESSAGES.options(contentType ?? '');
  return new AppError('ExternalServiceError', message, { details });
}

/** The organization's content-manager config with its passwords opened and its URL without trailing '/'; null when no URL is set. */
export async function loadContentManagerConfig(deps: AppDeps, organizationId: string): Promise<ContentManagerConfig | null> {
  const row = await findSettingRow(deps.db, { scope: 'organization', id: organizationId }, SETTING_IDS.contentManager);
  const config = openContentManagerConfig(deps.secrets, organizationId, row?.value ?? '');
  if (!config?.url.trim()) return null;
  return { ...config, url: config.url.trim().replace(/\/+$/, '') };
}

/** What a read of the content manager needs: where it is and the API user's jwt. */
export type StrapiConnection = { organizationId: string; url: string; jwt: string };

/**
 * Jwts by server instance and sign-in, kept briefly: an optimisation only (each node signs in
 * on its own; a jwt the content manager no longer takes is dropped and the read retried once).
 * Reads that need a jwt while one is being fetched wait for that sign-in instead of starting
 * their own (an exhibit connecting lists files while the console reads content, for one).
 */
const JWT_TTL_MS = 5 * 60_000;
const JWT_CACHE_LIMIT = 500;
type JwtCache = { jwts: Map<string, { jwt: string; expiresAt: number }>; signingIn: Map<string, Promise<string>> };
const jwtCaches = new WeakMap<AppDeps, JwtCache>();

function jwtCache(deps: AppDeps): JwtCache {
  let cache = jwtCaches.get(deps);
  if (!cache) {
    cache = { jwts: new Map(), signingIn: new Map() };
    jwtCaches.set(deps, cache);
  }
  return cache;
}

/** The cache key: a changed URL, user or password never reuses a jwt. */
function signInKey(organizationId: string, config: ContentManagerConfig): string {
  const password = createHash('sha256').update(config.apiPassword).digest('hex');
  return [organizationId, config.url, config.apiUser, password].join('\n');
}

async function signIn(deps: AppDeps, organizationId: string, config: ContentManagerConfig): Promise<string> {
  if (!config.apiUser || !config.apiPassword) {
    throw strapiFailure({ reason: 'noJwt', organizationId, cause: 'The content manager API user or its password is not set.' });
  }
  try {
    return (await strapiLocalAuth(deps.outbound, { url: config.url, user: config.apiUser, password: config.apiPassword })).jwt;
  } catch (error) {
    // The outbound rules answer ValidationError for an address Plinth may not fetch.
    if (error instanceof AppError && (error.code === 'ExternalServiceError' || error.code === 'ValidationError')) {
      throw strapiFailure({ reason: 'noJwt', organizationId, cause: error.message });
    }
    throw error;
  }
}

/**
 * The URL and a jwt of the organization's content manager (`fresh`: never a cached jwt).
 * Rejects with the noUrl or noJwt failure.
 */
export async function connectStrapi(deps: AppDeps, organizationId: string, fresh = false): Promise<StrapiConnection & { isCached: boolean }> {
  const config = await loadContentManagerConfig(deps, organizationId);
  if (!config) throw strapiFailure({ reason: 'noUrl', organizationId });
  const { jwts, signingIn } = jwtCache(deps);
  const key = signInKey(organizationId, config);
  const cached = jwts.get(key);
  if (cached && !fresh && cached.expiresAt > deps.clock.now().getTime()) {
    return { organizationId, url: config.url, jwt: cached.jwt, isCached: true };
  }
  // A sign-in under way answers a new jwt, so even a `fresh` read may share it.
  let pending = signingIn.get(key);
  if (!pending) {
    pending = signIn(deps, organizationId, config).then((jwt) => {
      jwts.delete(key);
      jwts.set(key, { jwt, expiresAt: deps.clock.now().getTime() + JWT_TTL_MS });
      // Oldest first: a Map iterates in insertion order.
      while (jwts.size > JWT_CACHE_LIMIT) jwts.delete(jwts.keys().next().value!);
      return jwt;
    });
    const settled = () => signingIn.delete(key);
    pending.then(settled, settled);
    signingIn.set(key, pending);
  }
  const jwt = await pending;
  return { organizationId, url: config.url, jwt, isCached: false };
}

/**
 * Runs `read` with a connection to the organization's content manager. A cached jwt the content
 * manager refuses (401, 403) is dropped and the read tried once more with a new sign-in.
 */
export async function withStrapi<T>(deps: AppDeps, organizationId: string, read: (connection: StrapiConnection) => Promise<T>): Promise<T> {
  const connection = await connectStrapi(deps, organizationId);
  try {
    return await read(connection);
  } catch (error) {
    const isRefused = error instanceof ContentManagerError && (error.upstreamStatus === 401 || error.upstreamStatus === 403);
    if (!isRefused || !connection.isCached) throw error;
    return read(await connectStrapi(deps, organizationId, true));
  }
}

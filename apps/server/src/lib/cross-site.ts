import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/**
 * What legitimately arrives from another site: the single sign-on flow, and the one-click
 * unsubscribe link of a notification mail opened from a webmail (its token is its only credential).
 */
const CROSS_SITE_PATHS = ['/api/v1/auth/google', '/api/v1/exhibit-management/notifications/unsubscribe'];

/**
 * Refuses API and socket requests a browser says come from another site (403). The session
 * cookie is SameSite=Lax, which browsers still send on a cross-site top-level GET, and the spec
 * puts hardware commands on GET.
 */
export async function refuseCrossSiteRequest(request: FastifyRequest): Promise<void> {
  if (!request.url.startsWith('/api/') && !request.url.startsWith('/ws')) return;
  if (request.headers['sec-fetch-site'] === 'cross-site' && !CROSS_SITE_PATHS.some((path) => request.url.startsWith(path))) {
    throw new AppError('Forbidden', 'Requests from other sites are not accepted.');
  }
}

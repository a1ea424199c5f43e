import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/**
 * Refuses API and socket requests a browser says come from another site (403). The session
 * cookie is SameSite=Lax, which browsers still send on a cross-site top-level GET, and the spec
 * puts hardware commands on GET. Only the single sign-on flow legitimately arrives from another site.
 */
export async function refuseCrossSiteRequest(request: FastifyRequest): Promise<void> {
  if (!request.url.startsWith('/api/') && !request.url.startsWith('/ws')) return;
  if (request.headers['sec-fetch-site'] === 'cross-site' && !request.url.startsWith('/api/v1/auth/google')) {
    throw new AppError('Forbidden', 'Requests from other sites are not accepted.');
  }
}

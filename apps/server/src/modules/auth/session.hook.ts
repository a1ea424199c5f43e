import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret } from '../../lib/crypto.js';
import { loadGrants, type Grants } from '../access/grants.js';
import type { AuthUser } from './auth-user.js';
import { resolveSession } from './sessions.service.js';

/**
 * Resolves the session cookie (`plinth_session`) of every API and socket request to its user
 * (`request.sessionUser`, null when signed out) and gives the request `user` and `grants()`. It
 * decides nothing: public routes run signed out, and `authenticated` groups refuse them.
 */
export function registerSessionHook(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('user', {
    getter(this: FastifyRequest): AuthUser {
      if (!this.sessionUser) throw new AppError('Unauthorized');
      return this.sessionUser;
    },
  });
  app.decorateRequest('sessionTokenHash', null);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('grants', function grantsPlaceholder(): Promise<Grants> {
    throw new Error('grants used before the session hook');
  });

  app.addHook('onRequest', async (request) => {
    let cached: Promise<Grants> | null = null;
    request.grants = () => {
      if (!request.sessionUser) return Promise.reject(new AppError('Unauthorized'));
      cached ??= loadGrants(deps.db, request.sessionUser);
      return cached;
    };
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/ws')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    request.sessionUser = await resolveSession(deps, token);
    request.sessionTokenHash = request.sessionUser ? hashSecret(token) : null;
  });
}

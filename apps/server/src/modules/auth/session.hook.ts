import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret } from '../../lib/crypto.js';
import { loadGrants, type Grants } from '../access/grants.js';
import { authenticateApiKey } from '../api-keys/api-keys.service.js';
import type { AuthUser } from './auth-user.js';
import { resolveSession } from './sessions.service.js';

/** Refused to an API key: a call only a person makes (reading `request.user`). */
export const PERSON_ONLY_MESSAGE = 'API keys cannot make this call: sign in as a person.';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Resolves the session cookie (`plinth_session`) of every API and socket request to its user
 * (`request.sessionUser`, null when signed out), or an `Authorization: Bearer` API key of a REST
 * call to `request.apiKey` (checked in the database on every call, throttled per key; 401 or 429
 * at once when refused), and gives the request `user` and `grants()`. It decides nothing else:
 * public routes run signed out, and `authenticated` groups refuse them.
 */
export function registerSessionHook(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('user', {
    getter(this: FastifyRequest): AuthUser {
      if (!this.sessionUser) throw this.apiKey ? new AppError('Forbidden', PERSON_ONLY_MESSAGE) : new AppError('Unauthorized');
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
    const bearer = request.url.startsWith('/api/') ? BEARER.exec(request.headers.authorization ?? '') : null;
    if (bearer) {
      const key = await authenticateApiKey(deps, bearer[1]!);
      request.apiKey = key.principal;
      request.grants = () => Promise.resolve(key.grants);
      return;
    }
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/ws')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    request.sessionUser = await resolveSession(deps, token);
    request.sessionTokenHash = request.sessionUser ? hashSecret(token) : null;
  });
}

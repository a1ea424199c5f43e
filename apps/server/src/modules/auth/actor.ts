import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';

/**
 * Who made a request: a signed-in person or an API key (issue 20). Histories, logs and the audit
 * log name the actor by `label`: the person's email, or the key's name marked as a key.
 */
export type Actor =
  | { kind: 'user'; id: string; email: string; label: string }
  | { kind: 'apiKey'; id: string; organizationId: string; label: string };

/** The actor behind a request; 401 when neither a session nor an API key authenticated it. */
export function actorOf(request: FastifyRequest): Actor {
  if (request.apiKey) {
    return { kind: 'apiKey', id: request.apiKey.id, organizationId: request.apiKey.organizationId, label: `API key "${request.apiKey.name}"` };
  }
  if (request.sessionUser) return { kind: 'user', id: request.sessionUser.id, email: request.sessionUser.email, label: request.sessionUser.email };
  throw new AppError('Unauthorized');
}

import type { FastifyRequest } from 'fastify';
import { actorOf } from '../auth/actor.js';

/** Who made a change, as the audit log names them: a person or an API key. */
export type AuditActor = { kind: 'user' | 'apiKey'; id: string; label: string };

/**
 * Who acted and from where: what a route hands the service that makes a change, so the service
 * can record it (services never see the request).
 */
export type AuditContext = { actor: AuditActor; address: string | null };

/** The audit context of a request: its actor (`actorOf`: the person, or the API key under its name) and its IP address. */
export function auditContext(request: FastifyRequest): AuditContext {
  const actor = actorOf(request);
  return { actor: { kind: actor.kind, id: actor.id, label: actor.label }, address: request.ip || null };
}

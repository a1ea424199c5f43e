import type { FastifyReply, FastifyRequest } from 'fastify';
import { Id } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { issueExhibitCredential, verifyExhibitCredential } from '../../modules/exhibit-runtime/exhibit-tokens.service.js';

/** The cookie the Gumband SDK keeps in its jar and sends with every call (and as the socket's `jwt`). */
export const GUMBAND_COOKIE = 'exhibitToken';
/**
 * How long the cookie lasts. The SDK authenticates once, when its process starts, and reuses
 * the cookie for every reconnect after, so it must outlive a long run; it still dies with the
 * token (it is a Plinth exhibit credential, signed with the token's hash).
 */
export const GUMBAND_COOKIE_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** POST /auth/exhibit/authenticate: the exhibit's id and one of its Plinth tokens → the cookie; 403 otherwise. */
export async function signIn(deps: AppDeps, reply: FastifyReply, body: { exhibitId: string; token: string }): Promise<void> {
  if (!Id.safeParse(body.exhibitId).success) throw new AppError('Forbidden', 'The exhibit id or token is not valid.');
  const credential = await issueExhibitCredential(deps, { exhibitId: body.exhibitId, token: body.token, ttlMs: GUMBAND_COOKIE_TTL_MS }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'Unauthorized') throw new AppError('Forbidden', 'The exhibit id or token is not valid.');
    throw error;
  });
  void reply.setCookie(GUMBAND_COOKIE, credential.credential, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    maxAge: Math.floor(GUMBAND_COOKIE_TTL_MS / 1000),
  });
}

/** The cookie must be a credential of exactly this exhibit: it authorizes nothing else (403). */
export async function authorizeGumbandExhibit(deps: AppDeps, request: FastifyRequest, exhibitId: string): Promise<void> {
  const credential = request.cookies[GUMBAND_COOKIE];
  const valid = credential && Id.safeParse(exhibitId).success ? await verifyExhibitCredential(deps, exhibitId, credential) : null;
  if (!valid) throw new AppError('Forbidden', 'Authenticate this exhibit first (POST /api/v1/auth/exhibit/authenticate).');
}

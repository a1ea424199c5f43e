import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '@plinth/shared';
import type { Config } from '../config.js';

/** The session cookie: HttpOnly, SameSite=Lax, Secure unless served over plain http; it lasts as long as the session. */
export function setSessionCookie(reply: FastifyReply, config: Config, session: { token: string; expiresAt: Date }): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    expires: session.expiresAt,
  });
}

/** Removes the session cookie (sign-out). */
export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.cookieSecure });
}

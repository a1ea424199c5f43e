import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangePasswordBody,
  CheckResetPasswordBody,
  CheckResetPasswordResponse,
  CreateAccountBody,
  LoginMethodsSchema,
  OidcCallbackQuery,
  OkSchema,
  ResetPasswordBody,
  type LoginMethod,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { dummyPasswordHash } from '../../lib/crypto.js';
import { clearSessionCookie, setSessionCookie } from '../../lib/session-cookie.js';
import { changePassword, checkLink, createAccountFromLink, requestPasswordReset } from './auth.service.js';
import { finishSignOn, OIDC_CALLBACK_PATH, startSignOn } from './oidc.service.js';
import { deleteSession } from './sessions.service.js';

const OIDC_COOKIE = 'plinth_oidc';

/**
 * Signing out, account links (create account, reset password) and single sign-on: the
 * auth calls open to everyone (signing in is in sign-in.routes.ts, who is signed in in current-user.routes.ts).
 */
export function authRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['auth'];
    // Made now, so that the first sign-in without a password hash takes no longer than the others.
    await dummyPasswordHash();

    app.get('/auth/login-methods', { schema: { tags, response: { 200: LoginMethodsSchema } } }, async () => {
      const methods: LoginMethod[] = ['GENERIC'];
      if (deps.config.oidcEnabled) methods.push('GOOGLE_AUTH');
      return { methods };
    });

    app.post('/auth/logout', { schema: { tags, response: { 200: OkSchema } } }, async (request, reply) => {
      if (request.sessionTokenHash) await deleteSession(deps, request.sessionTokenHash);
      clearSessionCookie(reply, deps.config);
      return { ok: true as const };
    });

    app.post(
      '/auth/user/generic',
      { schema: { tags, body: CreateAccountBody, response: { 200: OkSchema } } },
      async (request) => {
        await createAccountFromLink(deps, request.body, request.ip);
        return { ok: true as const };
      },
    );

    app.post(
      '/auth/user/reset-password',
      { schema: { tags, body: ResetPasswordBody, response: { 200: OkSchema } } },
      async (request) => {
        await requestPasswordReset(deps, request.body.email, request.ip);
        return { ok: true as const };
      },
    );

    app.post(
      '/auth/user/check-reset-password',
      { schema: { tags, body: CheckResetPasswordBody, response: { 200: CheckResetPasswordResponse } } },
      async (request) => checkLink(deps, request.body.resetUrlId, request.ip),
    );

    app.post(
      '/auth/user/change-password',
      { schema: { tags, body: ChangePasswordBody, response: { 200: OkSchema } } },
      async (request) => {
        await changePassword(deps, { ...request.body, ip: request.ip });
        return { ok: true as const };
      },
    );

    app.get('/auth/google', { schema: { tags, hide: false } }, async (_request, reply) => {
      const { url, state, verifier } = await startSignOn(deps);
      reply.setCookie(OIDC_COOKIE, JSON.stringify({ state, verifier }), {
        path: '/api/v1/auth/google',
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.config.cookieSecure,
        maxAge: 600,
      });
      return reply.redirect(url);
    });

    app.get(
      '/auth/google/callback',
      { schema: { tags, querystring: OidcCallbackQuery } },
      async (request, reply) => {
        const saved = parseOidcCookie(request.cookies[OIDC_COOKIE]);
        if (!saved) throw new AppError('Unauthorized', 'The sign-on took too long or was started elsewhere. Please try again.');
        const callbackUrl = new URL(request.url, `${deps.config.publicUrl}`);
        callbackUrl.pathname = OIDC_CALLBACK_PATH;
        try {
          const session = await finishSignOn(deps, { callbackUrl, ...saved });
          setSessionCookie(reply, deps.config, session);
        } catch (error) {
          deps.logger.warn({ err: error }, 'single sign-on failed');
          reply.clearCookie(OIDC_COOKIE, { path: '/api/v1/auth/google' });
          return reply.redirect('/login?sso=failed');
        }
        reply.clearCookie(OIDC_COOKIE, { path: '/api/v1/auth/google' });
        return reply.redirect('/');
      },
    );
  };
}

function parseOidcCookie(raw: string | undefined): { state: string; verifier: string } | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { state?: unknown; verifier?: unknown };
    return typeof value.state === 'string' && typeof value.verifier === 'string'
      ? { state: value.state, verifier: value.verifier }
      : null;
  } catch {
    return null;
  }
}

import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CurrentUserSchema, LoginBody, LoginResponseSchema, TwoFactorLoginBody } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { setSessionCookie } from '../../lib/session-cookie.js';
import { login } from './auth.service.js';
import { resolveSession } from './sessions.service.js';
import { completeTwoFactorSignIn, PENDING_SIGN_IN_MS } from './two-factor.service.js';
import { presentCurrentUser } from './users.service.js';

/** The pending sign-in between the password and the two-factor code (HttpOnly, only sent to the sign-in calls). */
const PENDING_SIGN_IN_COOKIE = 'plinth_2fa';
const PENDING_SIGN_IN_PATH = '/api/v1/auth/user/login';

const PASSWORD_STEP =
  'Signs in with email and password. An account with two-factor sign-in answers `{ twoFactorRequired: true }` and sets a 5-minute pending sign-in cookie instead of the session; POST /auth/user/login/two-factor completes it.';
const CODE_STEP =
  'The second step of a sign-in with two-factor: a 6-digit code from the app or an unused recovery code. Throttled and locked like passwords (same account and address counts).';

/** Signing in with email and password, and the two-factor code that completes it when the account has it on. */
export function signInRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['auth'];
    /** Sets the new session's cookie and answers its user. */
    const startSession = async (reply: FastifyReply, session: { token: string; expiresAt: Date }) => {
      setSessionCookie(reply, deps.config, session);
      return presentCurrentUser((await resolveSession(deps, session.token))!);
    };

    app.post(
      '/auth/user/login',
      { schema: { tags, description: PASSWORD_STEP, body: LoginBody, response: { 200: LoginResponseSchema } } },
      async (request, reply) => {
        const step = await login(deps, { ...request.body, ip: request.ip });
        if ('pendingSignIn' in step) {
          reply.setCookie(PENDING_SIGN_IN_COOKIE, step.pendingSignIn, {
            path: PENDING_SIGN_IN_PATH,
            httpOnly: true,
            sameSite: 'strict',
            secure: deps.config.cookieSecure,
            maxAge: PENDING_SIGN_IN_MS / 1000,
          });
          return { twoFactorRequired: true as const };
        }
        return startSession(reply, step.session);
      },
    );

    app.post(
      '/auth/user/login/two-factor',
      { schema: { tags, description: CODE_STEP, body: TwoFactorLoginBody, response: { 200: CurrentUserSchema } } },
      async (request, reply) => {
        const session = await completeTwoFactorSignIn(deps, {
          pendingToken: request.cookies[PENDING_SIGN_IN_COOKIE],
          code: request.body.code,
          ip: request.ip,
        });
        reply.clearCookie(PENDING_SIGN_IN_COOKIE, { path: PENDING_SIGN_IN_PATH });
        return startSession(reply, session);
      },
    );
  };
}

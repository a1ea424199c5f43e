import * as oidc from 'openid-client';
import { normalizeEmail } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { createSession } from './sessions.service.js';
import { findUserByEmail, insertUser, updateUser } from './users.repository.js';

/** The OpenID Connect callback path, under the API base. */
export const OIDC_CALLBACK_PATH = '/api/v1/auth/google/callback';

let cached: { issuer: string; config: Promise<oidc.Configuration> } | null = null;

/** Discovers the issuer once (Google by default, any OIDC issuer through OIDC_ISSUER_URL). */
function issuerConfig(deps: AppDeps): Promise<oidc.Configuration> {
  const { config } = deps;
  if (!config.oidcEnabled) throw new AppError('SingleSignOnNotConfigured');
  if (cached?.issuer !== config.oidcIssuerUrl) {
    const issuer = new URL(config.oidcIssuerUrl);
    const promise = oidc.discovery(
      issuer,
      config.GOOGLE_CLIENT_ID!,
      config.GOOGLE_CLIENT_SECRET!,
      undefined,
      issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
    promise.catch(() => {
      cached = null;
    });
    cached = { issuer: config.oidcIssuerUrl, config: promise };
  }
  return cached.config;
}

/** Where to send the browser, and the state to keep in a short-lived cookie. */
export async function startSignOn(deps: AppDeps): Promise<{ url: string; state: string; verifier: string }> {
  const config = await issuerConfig(deps);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${deps.config.publicUrl}${OIDC_CALLBACK_PATH}`,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { url: url.href, state, verifier };
}

/**
 * Finishes sign-on: the identity's email finds the user (an invited user gets the account; an
 * unknown email gets a new account with no access yet). Answers a session.
 */
export async function finishSignOn(
  deps: AppDeps,
  { callbackUrl, state, verifier }: { callbackUrl: URL; state: string; verifier: string },
) {
  const config = await issuerConfig(deps);
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  const claims = tokens.claims();
  if (!claims?.sub) throw new AppError('Unauthorized', 'The identity provider gave no subject.');
  const rawEmail = typeof claims.email === 'string' ? claims.email : null;
  if (!rawEmail) throw new AppError('Unauthorized', 'The identity provider gave no email address.');
  const email = normalizeEmail(rawEmail);
  const profile = {
    oidcSubject: claims.sub,
    accountCreated: true,
    profileImage: typeof claims.picture === 'string' ? claims.picture : null,
  };
  const names = {
    firstName: typeof claims.given_name === 'string' ? claims.given_name : '',
    lastName: typeof claims.family_name === 'string' ? claims.family_name : '',
  };
  const existing = await findUserByEmail(deps.db, email);
  const user = existing
    ? await updateUser(deps.db, existing.id, {
        ...profile,
        ...(existing.accountCreated ? {} : names),
        profileImage: profile.profileImage ?? existing.profileImage,
      })
    : await insertUser(deps.db, { email, ...profile, ...names });
  return createSession(deps, user.id);
}

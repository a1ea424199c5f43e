import type { Grants } from '../access/grants.js';

/**
 * An API key behind a request (`Authorization: Bearer`), set by the API-key hook (issue 20): the
 * key stands for itself, never for a person, and is audited under its name.
 */
export type ApiKeyPrincipal = { id: string; name: string; organizationId: string };

/** The signed-in user behind a request or a console socket. */
export type AuthUser = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  profileImage: string | null;
  isPlatformAdmin: boolean;
  /**
   * A password account without two-factor sign-in that has a role in an organization requiring it:
   * only GET /auth, sign-out and the two-factor calls answer it (docs/security.md).
   */
  mustEnrolTwoFactor?: boolean;
};

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    /** Set from the session cookie by the session hook; null when not signed in. */
    sessionUser: AuthUser | null;
    /**
     * The signed-in user. Routes in an `authenticated` group read it freely: their hook answered
     * 401 before the handler when nobody is signed in. Read anywhere else without a session it
     * throws that same 401, so it can never stand for nobody.
     */
    readonly user: AuthUser;
    /** The API key that authenticated this request (`Authorization: Bearer`); null otherwise. */
    apiKey: ApiKeyPrincipal | null;
    /** Hash of the session token, to sign out. */
    sessionTokenHash: string | null;
    /** The signed-in user's grants, loaded once per request on first use (401 when signed out). */
    grants: () => Promise<Grants>;
  }
}

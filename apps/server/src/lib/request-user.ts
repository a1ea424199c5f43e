import type { FastifyRequest } from 'fastify';
import type { Grants } from '../modules/access/grants.js';
import { AppError } from './app-error.js';

/** The signed-in user behind a request. */
export type AuthUser = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  profileImage: string | null;
  isPlatformAdmin: boolean;
};

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    /** Set from the session cookie by the auth hook; null when not signed in. */
    user: AuthUser | null;
    /** Hash of the session token, to sign out. */
    sessionTokenHash: string | null;
    /** The user's grants, loaded once per request on first use. */
    grants: () => Promise<Grants>;
  }
}

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('Unauthorized');
  return request.user;
}

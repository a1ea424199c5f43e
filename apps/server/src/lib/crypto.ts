import { createHash, randomBytes } from 'node:crypto';
import { hash, verify, Algorithm } from '@node-rs/argon2';

/** A random URL-safe secret (32 bytes). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a high-entropy secret (session, link and device tokens), hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Passwords are hashed with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: Algorithm.Argon2id });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/** A hash of a random secret, made once with the same parameters as real ones. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(newSecret());
  return dummyHash;
}

/**
 * Checks a password against the user's hash; without one (unknown email, invited user, single
 * sign-on account) it does the same work against a dummy hash and answers false, so the time
 * taken does not tell whether the account exists.
 */
export async function verifyPasswordOrDummy(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (passwordHash) return verifyPassword(passwordHash, password);
  await verifyPassword(await dummyPasswordHash(), password);
  return false;
}

import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Sealed values start with it; the version lets a later format (or key rotation) sit beside this one. */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A key is 32 random bytes (AES-256). */
export const SECRET_KEY_BYTES = 32;

/**
 * Encrypts short secrets the server must use later (passwords of external services) for storage:
 * AES-256-GCM, stored as `enc:v1:` + base64url(iv | tag | ciphertext). `context` (e.g. the
 * organization and field) is authenticated, so a sealed value copied elsewhere does not open.
 */
export type SecretBox = {
  seal: (plain: string, context: string) => string;
  /** Throws SecretBoxError when the key is not the one that sealed it, or the value was altered. */
  open: (sealed: string, context: string) => string;
  /**
   * An HMAC-SHA256 of `data` (base64url) for values handed out and taken back as they are (mail
   * links): `context` names the purpose, so a signature made for one use is worthless for another.
   */
  sign: (data: string, context: string) => string;
  /** True when `signature` is what `sign` makes of `data` in `context` (compared in constant time). */
  verify: (data: string, context: string, signature: string) => boolean;
};

export class SecretBoxError extends Error {}

/** True for a value `seal` made (anything else is a value stored in clear by an older version). */
export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_KEY_BYTES) throw new Error(`A secret key is ${SECRET_KEY_BYTES} bytes.`);
  // Signing uses its own key derived from SECRET_KEY, never the encryption key itself.
  const signingKey = createHmac('sha256', key).update('plinth:sign:v1').digest();
  const sign = (data: string, context: string) => createHmac('sha256', signingKey).update(`${context}\n${data}`).digest('base64url');
  return {
    sign,
    verify: (data, context, signature) => {
      const expected = Buffer.from(sign(data, context));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    seal: (plain, context) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
    },
    open: (sealed, context) => {
      if (!isSealed(sealed)) throw new SecretBoxError('The value is not sealed.');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('The sealed value is damaged.');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('The sealed value does not open with this key (another SECRET_KEY, or a damaged value).');
      }
    },
  };
}

/** A 32-byte key written as hex (64 characters) or base64 / base64url (43 or 44 characters); null otherwise. */
export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === SECRET_KEY_BYTES ? key : null;
}

/** A new key, as base64 (what `openssl rand -base64 32` prints). */
export function newSecretKeyText(): string {
  return randomBytes(SECRET_KEY_BYTES).toString('base64');
}

/** For processes that never touch stored secrets (the command line); any use is a bug. */
export function createDetachedSecretBox(): SecretBox {
  const refuse = (): never => {
    throw new Error('Stored secrets are not available in this process.');
  };
  return { seal: refuse, open: refuse, sign: refuse, verify: refuse };
}

import { describe, expect, it } from 'vitest';
import { createSecretBox, isSealed, newSecretKeyText, parseSecretKey, SecretBoxError } from './secret-box.js';

const key = parseSecretKey(newSecretKeyText())!;

describe('secret box', () => {
  it('seals to a versioned value that opens only with its key and context', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('Adm1n-pass ünïcode', 'org-1:adminPassword');
    expect(sealed).toMatch(/^enc:v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('Adm1n');
    expect(isSealed(sealed)).toBe(true);
    expect(box.seal('Adm1n-pass ünïcode', 'org-1:adminPassword')).not.toBe(sealed);
    expect(box.open(sealed, 'org-1:adminPassword')).toBe('Adm1n-pass ünïcode');
    expect(() => box.open(sealed, 'org-2:adminPassword')).toThrow(SecretBoxError);
    expect(() => createSecretBox(parseSecretKey(newSecretKeyText())!).open(sealed, 'org-1:adminPassword')).toThrow(SecretBoxError);
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(altered, 'org-1:adminPassword')).toThrow(SecretBoxError);
    expect(() => box.open('enc:v1:abc', 'org-1:adminPassword')).toThrow(SecretBoxError);
    expect(isSealed('plain password')).toBe(false);
  });

  it('signs so that only the same key, context and data verify', () => {
    const box = createSecretBox(key);
    const signature = box.sign('user.exhibit.notify', 'unsubscribe');
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(box.verify('user.exhibit.notify', 'unsubscribe', signature)).toBe(true);
    expect(box.verify('user.exhibit.notify_op_mode', 'unsubscribe', signature)).toBe(false);
    expect(box.verify('user.exhibit.notify', 'another use', signature)).toBe(false);
    expect(box.verify('user.exhibit.notify', 'unsubscribe', signature.slice(1))).toBe(false);
    expect(createSecretBox(parseSecretKey(newSecretKeyText())!).verify('user.exhibit.notify', 'unsubscribe', signature)).toBe(false);
  });

  it('reads 32-byte keys as base64, base64url or hex, and nothing else', () => {
    const bytes = Buffer.alloc(32, 7);
    expect(parseSecretKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretKey(`${bytes.toString('base64url')}\n`)).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretKey(Buffer.alloc(16).toString('base64'))).toBeNull();
    expect(parseSecretKey('correct horse battery staple')).toBeNull();
    expect(parseSecretKey('')).toBeNull();
  });
});

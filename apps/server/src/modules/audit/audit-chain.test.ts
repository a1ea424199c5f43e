import { describe, expect, it } from 'vitest';
import { canonicalJson, entryHash, fieldChanges, GENESIS_HASH, REDACTED, redact, type ChainedFields } from './audit-chain.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth, so one value always gives one text', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: undefined, b: new Date(0) })).toBe('{"b":"1970-01-01T00:00:00.000Z"}');
  });
});

describe('redact', () => {
  it('replaces secrets at any depth and inside JSON text, keeping empty ones and everything else', () => {
    const config = JSON.stringify({ url: 'https://cms', adminUser: 'ada', adminPassword: 'hunter2', apiPassword: '' });
    expect(redact({ token: 'abc', name: 'PC', nested: [{ apiKey: 'k', secret: 's', value: config }], password: null })).toEqual({
      token: REDACTED,
      name: 'PC',
      nested: [{ apiKey: REDACTED, secret: REDACTED, value: JSON.stringify({ url: 'https://cms', adminUser: 'ada', adminPassword: REDACTED, apiPassword: '' }) }],
      password: null,
    });
    expect(redact('{not json')).toBe('{not json');
  });
});

describe('entryHash', () => {
  const fields: ChainedFields = {
    organizationId: '6f1c3f7e-2a9b-4c8e-9d1a-3b5e7f9a1c2d',
    sequence: 1,
    at: new Date('2026-11-26T12:00:00.000Z'),
    actorKind: 'user',
    actorId: 'u',
    actorLabel: 'ada@example.com',
    address: '192.0.2.1',
    siteId: null,
    exhibitId: null,
    hardwareId: null,
    resource: 'site',
    resourceId: 's',
    action: 'update',
    beforeJson: null,
    afterJson: '{"name":"A"}',
  };

  it('changes with any field and with the previous hash', () => {
    const hash = entryHash(GENESIS_HASH, fields);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(entryHash(GENESIS_HASH, { ...fields })).toBe(hash);
    expect(entryHash(GENESIS_HASH, { ...fields, afterJson: '{"name":"B"}' })).not.toBe(hash);
    expect(entryHash(GENESIS_HASH, { ...fields, address: null })).not.toBe(hash);
    expect(entryHash('1'.repeat(64), fields)).not.toBe(hash);
  });
});

describe('fieldChanges', () => {
  it('names only the fields an update changes', () => {
    expect(fieldChanges({ name: 'A', locked: false }, { name: 'A', locked: true })).toEqual({ before: { locked: false }, after: { locked: true }, fields: ['locked'] });
    expect(fieldChanges({ name: 'A' }, { name: undefined })).toBeNull();
  });
});

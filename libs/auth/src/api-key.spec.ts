import { createHash } from 'node:crypto';
import { generateApiKey, hasApiKeyShape, hashApiKey } from './api-key';

describe('generateApiKey', () => {
  it('starts with sk_ and carries at least 32 URL-safe characters', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{32,}$/);
  });

  it('gives a different key each time', () => {
    const keys = new Set(Array.from({ length: 20 }, () => generateApiKey()));
    expect(keys.size).toBe(20);
  });

  it('gives keys that pass its own shape check', () => {
    expect(hasApiKeyShape(generateApiKey())).toBe(true);
  });
});

describe('hashApiKey', () => {
  it('is the lowercase hex SHA-256 of the whole key', () => {
    const key = 'sk_known-test-key';
    const expected = createHash('sha256').update(key, 'utf8').digest('hex');
    expect(hashApiKey(key)).toBe(expected);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches a published SHA-256 test vector', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the prefix too', () => {
    expect(hashApiKey('sk_abc')).not.toBe(hashApiKey('abc'));
  });
});

describe('hasApiKeyShape', () => {
  it('accepts normal keys', () => {
    expect(hasApiKeyShape('sk_abc')).toBe(true);
    expect(hasApiKeyShape('sk_' + 'a'.repeat(43))).toBe(true);
  });

  it('rejects keys without the prefix', () => {
    expect(hasApiKeyShape('abc')).toBe(false);
    expect(hasApiKeyShape('pk_abc')).toBe(false);
    expect(hasApiKeyShape('SK_abc')).toBe(false);
    expect(hasApiKeyShape('')).toBe(false);
  });

  it('rejects the bare prefix', () => {
    expect(hasApiKeyShape('sk_')).toBe(false);
  });

  it('accepts 128 characters and rejects anything longer', () => {
    expect(hasApiKeyShape('sk_' + 'a'.repeat(125))).toBe(true);
    expect(hasApiKeyShape('sk_' + 'a'.repeat(126))).toBe(false);
    expect(hasApiKeyShape('sk_' + 'a'.repeat(10_000))).toBe(false);
  });
});

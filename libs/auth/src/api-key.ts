import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'sk_';
/** 32 random bytes, base64url: 43 characters after the prefix. */
const API_KEY_RANDOM_BYTES = 32;
/** Anything longer is not one of ours; refusing it early keeps junk away from the database. */
const API_KEY_MAX_LENGTH = 128;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_RANDOM_BYTES).toString('base64url');
}

/**
 * The only form in which a key is stored or compared: SHA-256 of the whole
 * key (UTF-8), hex. Every authenticated request hashes its key: the one-shot
 * `hash` costs a third of a `Hash` object's update and digest.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function hasApiKeyShape(key: string): boolean {
  return (
    key.startsWith(API_KEY_PREFIX) && key.length > API_KEY_PREFIX.length && key.length <= API_KEY_MAX_LENGTH
  );
}

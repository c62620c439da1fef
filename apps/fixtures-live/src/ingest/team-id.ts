import { createHash } from 'node:crypto';

/**
 * Our public team id for a provider team id: derived, so it is the same in
 * every process and after every restart, and opaque, so nobody builds on the
 * provider's ids.
 */
export function teamIdFor(providerTeamId: string): string {
  return `tm_${createHash('sha256').update(`team:${providerTeamId}`).digest('base64url').slice(0, 16)}`;
}

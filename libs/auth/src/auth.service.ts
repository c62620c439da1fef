import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { type AccessRequirement, decideAccess } from './access-requirement';
import { AuthError } from './auth-failure';
import { extractApiKey, type QueryValue, queryKeyFromUrl } from './extract-api-key';
import type { Principal } from './key-record';
import { KeyRegistry } from './key-registry';

/** Something that carries headers and possibly a parsed `key` query value. */
export interface KeyBearingRequest {
  readonly headers: IncomingMessage['headers'];
  readonly query?: Record<string, unknown>;
}

/**
 * The single path from a presented key to a Principal or an AuthError, shared
 * by REST guards and WebSocket handshakes of both apps.
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly registry: KeyRegistry,
    private readonly clock: Clock,
  ) {}

  /** See KeyRegistry.onKeysChanged: streams check their clients' keys again. */
  onKeysChanged(listener: () => void): () => void {
    return this.registry.onKeysChanged(listener);
  }

  async authenticate(key: string | undefined, requirement: AccessRequirement): Promise<Principal> {
    if (!key) throw new AuthError({ kind: 'missing_key' });
    const principal = await this.registry.lookup(key);
    const failure = decideAccess(principal, requirement, this.clock.now());
    if (failure || !principal) throw new AuthError(failure ?? { kind: 'invalid_key', reason: 'unknown' });
    return principal;
  }

  /** For an Express request, whose query string is already parsed. */
  authenticateRequest(request: KeyBearingRequest, requirement: AccessRequirement): Promise<Principal> {
    return this.authenticate(extractApiKey(request.headers, request.query?.key as QueryValue), requirement);
  }

  /** For a WebSocket upgrade, before it is accepted. */
  authenticateUpgrade(request: IncomingMessage, requirement: AccessRequirement): Promise<Principal> {
    return this.authenticate(extractApiKey(request.headers, queryKeyFromUrl(request.url)), requirement);
  }
}

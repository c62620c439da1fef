import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { Clock } from '@app/clock';
import { type AccessRequirement, ANY_VALID_KEY, decideAccess } from './access-requirement';
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
    const principal = await this.identify(key);
    this.authorize(principal, requirement);
    return principal;
  }

  /**
   * The first half of `authenticate`: the key exists, is enabled and has not
   * expired (else 401, or 503 when it cannot be told). What it may do is
   * `authorize`'s question.
   */
  async identify(key: string | undefined): Promise<Principal> {
    if (!key) throw new AuthError({ kind: 'missing_key' });
    const principal = await this.registry.lookup(key);
    const failure = decideAccess(principal, ANY_VALID_KEY, this.clock.now());
    if (failure || !principal) throw new AuthError(failure ?? { kind: 'invalid_key', reason: 'unknown' });
    return principal;
  }

  /** The second half: the key's scopes and grants meet the requirement (else 403). */
  authorize(principal: Principal, requirement: AccessRequirement): void {
    const failure = decideAccess(principal, requirement, this.clock.now());
    if (failure) throw new AuthError(failure);
  }

  /** For an Express request, whose query string is already parsed. */
  authenticateRequest(request: KeyBearingRequest, requirement: AccessRequirement): Promise<Principal> {
    return this.authenticate(requestKey(request), requirement);
  }

  /** `identify` for an Express request. */
  identifyRequest(request: KeyBearingRequest): Promise<Principal> {
    return this.identify(requestKey(request));
  }

  /** For a WebSocket upgrade, before it is accepted. */
  authenticateUpgrade(
    request: Pick<IncomingMessage, 'url' | 'headers'>,
    requirement: AccessRequirement,
  ): Promise<Principal> {
    return this.authenticate(extractApiKey(request.headers, queryKeyFromUrl(request.url)), requirement);
  }
}

function requestKey(request: KeyBearingRequest): string | undefined {
  return extractApiKey(request.headers, request.query?.key as QueryValue);
}

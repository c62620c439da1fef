import { type CanActivate, type ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthService, type KeyBearingRequest } from '../auth.service';
import { isPublicRoute, type PrincipalHolder, routeAccess } from '../decorators/access.decorators';
import { RateLimits } from '../rate-limit/rate-limits';
import { applyRestRateLimit, type HeaderTarget } from '../rate-limit/rest-rate-limit';

/**
 * Installed globally by each app (APP_GUARD): every HTTP route needs a valid
 * key unless marked @Public(), plus whatever its scope and sportsbook
 * decorators (on the handler and its controller) demand.
 *
 * The key's REST rate is spent between the two: once the key is known to be
 * valid, before its scopes are checked. A request with no key or a bad one
 * (401) spends nothing and gets no rate headers, since there is no key to
 * charge; a valid key's 403 is charged and carries the headers like any other
 * answer to that key.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    @Optional() private readonly rateLimits?: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (isPublicRoute(this.reflector, targets)) return true;

    const requirement = routeAccess(this.reflector, targets);
    const http = context.switchToHttp();
    const request = http.getRequest<KeyBearingRequest & PrincipalHolder>();
    const principal = await this.auth.identifyRequest(request);
    if (this.rateLimits)
      applyRestRateLimit(this.rateLimits.admit(principal), http.getResponse<HeaderTarget>());
    this.auth.authorize(principal, requirement);
    request.principal = principal;
    return true;
  }
}

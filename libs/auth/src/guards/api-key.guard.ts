import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AccessRequirement, ScopeRule } from '../access-requirement';
import { AuthService, type KeyBearingRequest } from '../auth.service';
import {
  isPublicRoute,
  type PrincipalHolder,
  SCOPE_RULES,
  SPORTSBOOK,
} from '../decorators/access.decorators';

/**
 * Installed globally by each app (APP_GUARD): every HTTP route needs a valid
 * key unless marked @Public(), plus whatever its scope and sportsbook
 * decorators (on the handler and its controller) demand.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (isPublicRoute(this.reflector, targets)) return true;

    const requirement: AccessRequirement = {
      scopeRules: this.reflector.getAllAndMerge<ScopeRule[]>(SCOPE_RULES, targets),
      sportsbook: this.reflector.getAllAndOverride<string | undefined>(SPORTSBOOK, targets),
    };
    const request = context.switchToHttp().getRequest<KeyBearingRequest & PrincipalHolder>();
    request.principal = await this.auth.authenticateRequest(request, requirement);
    return true;
  }
}

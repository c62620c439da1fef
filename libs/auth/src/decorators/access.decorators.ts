import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { OPERATIONS_ENDPOINT } from '@app/observability';
import { type AccessRequirement, allOf, anyOf, type ScopeRule } from '../access-requirement';
import type { Principal } from '../key-record';
import type { Scope } from '../scopes';

export const IS_PUBLIC = 'auth:public';
export const SCOPE_RULES = 'auth:scope-rules';
export const SPORTSBOOK = 'auth:sportsbook';

/** Routes without a key: health, route lists. Everything else needs one. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** True for routes that take no key: marked @Public(), or an operations endpoint such as `/metrics`. */
export function isPublicRoute(
  reflector: Reflector,
  targets: Parameters<Reflector['getAllAndOverride']>[1],
): boolean {
  return (
    reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true ||
    reflector.getAllAndOverride<boolean | undefined>(OPERATIONS_ENDPOINT, targets) === true
  );
}

/** What a route's scope and sportsbook decorators (on the handler and its controller) demand of a key. */
export function routeAccess(
  reflector: Reflector,
  targets: Parameters<Reflector['getAllAndOverride']>[1],
): AccessRequirement {
  return {
    scopeRules: reflector.getAllAndMerge<ScopeRule[]>(SCOPE_RULES, targets),
    sportsbook: reflector.getAllAndOverride<string | undefined>(SPORTSBOOK, targets),
  };
}

function addScopeRule(rule: ScopeRule): MethodDecorator & ClassDecorator {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder: object = descriptor ? (descriptor.value as object) : target;
    const existing = (Reflect.getMetadata(SCOPE_RULES, holder) as ScopeRule[] | undefined) ?? [];
    Reflect.defineMetadata(SCOPE_RULES, [...existing, rule], holder);
  };
}

/** The key must hold every one of `scopes`. Stacks with other scope decorators. */
export const RequiresScopes = (...scopes: Scope[]) => addScopeRule(allOf(...scopes));

/** The key must hold at least one of `scopes`. Stacks with other scope decorators. */
export const RequiresAnyScope = (...scopes: Scope[]) => addScopeRule(anyOf(...scopes));

/** The key must hold a grant for the sportsbook `book` (odds routes). */
export const RequiresSportsbook = (book: string): MethodDecorator & ClassDecorator =>
  SetMetadata(SPORTSBOOK, book);

export interface PrincipalHolder {
  principal?: Principal;
}

/** The Principal the guard attached to the request. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<PrincipalHolder>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return request.principal;
});

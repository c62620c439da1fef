import { MethodNotAllowedException, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';

interface RouteLayer {
  readonly route?: { readonly methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The methods that routes on the request's path answer, read from the Express
 * router's own table. A route that takes the request's own method and still
 * let it through is a pass-through (Nest mounts middleware as such routes),
 * not an answer for other methods, so it is left out.
 */
export function routeMethods(request: Request): string[] {
  const router = (request.app as unknown as { router?: { stack?: RouteLayer[] } }).router;
  const own = request.method.toLowerCase();
  const methods = new Set<string>();
  for (const layer of router?.stack ?? []) {
    const route = layer.route;
    if (!route || route.methods[own] || route.methods._all || !layer.match(request.path)) continue;
    for (const method of Object.keys(route.methods)) methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/**
 * Nest answers a request that no route took with 404, whatever the reason.
 * When routes exist on the path for other methods, the right answer is 405
 * with `Allow`. Runs in the exception filter, so only requests that matched
 * nothing pay for the look-up.
 */
export function methodNotAllowed(
  exception: unknown,
  request: Request | undefined,
  response: Response,
): unknown {
  // Nest's own not-found handler words it "Cannot <METHOD> <url>"; a handler's 404 says something else.
  if (!(exception instanceof NotFoundException) || !request) return exception;
  if (exception.message !== `Cannot ${request.method} ${request.originalUrl}`) return exception;
  const allowed = routeMethods(request);
  if (allowed.length === 0) return exception;
  response.setHeader('Allow', allowed.join(', '));
  return new MethodNotAllowedException(
    `method ${request.method} not allowed here; use ${allowed.join(', ')}`,
  );
}

import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from './metrics';

/**
 * Times every HTTP request, labelled by the route pattern that matched (never
 * the raw path, whose ids would make labels unbounded); unmatched paths share
 * one label. Registered before the router so 401s from guards count too.
 */
export function httpMetricsMiddleware(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      // A wildcard is the logging middleware's catch-all, not a handler: the path matched nothing.
      const matched = typeof route === 'string' && !route.includes('*');
      end({
        method: req.method,
        route: matched ? `${req.baseUrl}${route}` : 'unmatched',
        status: String(res.statusCode),
      });
    });
    next();
  };
}

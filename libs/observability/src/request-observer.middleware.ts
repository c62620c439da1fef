import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoInstance } from 'pino';
import { isQuietPath, requestId } from './logging.module';
import type { Metrics } from './metrics';
import { redactKeys } from './redact';

/** What the observer reads and sets: Express's request, or Node's own that a front door took. */
export type ObservedRequest = IncomingMessage & {
  id?: string;
  route?: unknown;
  baseUrl?: string;
  originalUrl?: string;
};

/**
 * What every HTTP request leaves behind, from one `finish` listener: its id
 * (echoed as X-Request-Id), its duration in `http_request_duration_seconds`
 * labelled by the route pattern that matched (never the raw path, whose ids
 * would make labels unbounded; unmatched paths share one label), and one log
 * line with the request id, method, URL without key values, status and
 * duration. Headers are never logged, so no key header can leak; probes and
 * scrapes are counted but not logged. Registered before the router, so 401s
 * from guards and unmatched paths are observed too.
 *
 * This replaces pino-http, whose per-request machinery cost a third of the
 * REST throughput in the REST workload of `npm run bench`, and two listeners
 * per request (the log's and the metric's) with one.
 */
export function observeRequests(root: PinoInstance, metrics: Metrics) {
  const duration = metrics.httpDuration;
  return (req: ObservedRequest, res: ServerResponse, next: (error?: unknown) => void): void => {
    const id = requestId(req, res);
    req.id = id;
    const logged = !isQuietPath(req.url);
    const started = performance.now();
    res.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      const route = (req.route as { path?: unknown } | undefined)?.path;
      // A wildcard is a catch-all middleware's pattern, not a handler: the path matched nothing.
      const matched = typeof route === 'string' && !route.includes('*');
      duration.observe(
        {
          method: req.method,
          route: matched ? `${req.baseUrl ?? ''}${route}` : 'unmatched',
          status: String(res.statusCode),
        },
        seconds,
      );
      if (!logged) return;
      const failed = res.statusCode >= 500;
      // Built only when written: at LOG_LEVEL=warn most requests write nothing.
      if (!root.isLevelEnabled(failed ? 'error' : 'info')) return;
      const entry = {
        reqId: id,
        req: { id, method: req.method, url: redactKeys(req.originalUrl ?? req.url ?? '') },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(seconds * 1000),
      };
      if (failed) root.error(entry, 'request failed');
      else root.info(entry, 'request completed');
    });
    next();
  };
}

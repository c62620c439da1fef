import { EventEmitter } from 'node:events';
import pino from 'pino';
import { Metrics } from './metrics';
import { observeRequests } from './request-observer.middleware';

interface Finished {
  readonly url: string;
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly route?: unknown;
}

/** Runs requests through one middleware; answers the log lines written and the metrics. */
function observe(requests: readonly Finished[], level = 'info') {
  const lines: string[] = [];
  const metrics = new Metrics();
  const middleware = observeRequests(pino({ level }, { write: (line: string) => lines.push(line) }), metrics);
  let listeners = 0;
  for (const { url, status, headers = {}, route } of requests) {
    const res = Object.assign(new EventEmitter(), { statusCode: status, setHeader: () => undefined });
    const req = { url, originalUrl: url, method: 'GET', baseUrl: '', headers, route };
    middleware(req as never, res as never, () => undefined);
    listeners = Math.max(listeners, res.listenerCount('finish'));
    res.emit('finish');
  }
  return {
    lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    metrics: () => metrics.render(),
    listeners,
  };
}

describe('observeRequests', () => {
  it('writes one line per request with its id, the URL without key values and no headers', () => {
    const [line, ...rest] = observe([
      { url: '/v1/sports?key=sk_secretsecret&x=1', status: 200, headers: { 'x-api-key': 'sk_header' } },
    ]).lines;
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/v1/sports?key=[redacted]&x=1' },
    });
    expect(line.reqId).toEqual((line.req as { id: string }).id);
    expect(JSON.stringify(line)).not.toContain('sk_');
  });

  it('logs server errors at error level and skips probes', () => {
    expect(observe([{ url: '/v1/matches', status: 503 }]).lines[0]).toMatchObject({
      level: 50,
      msg: 'request failed',
    });
    expect(observe([{ url: '/v1/health/ready', status: 200 }]).lines).toEqual([]);
  });

  it('writes below info only the failures', () => {
    expect(observe([{ url: '/v1/matches', status: 200 }], 'warn').lines).toEqual([]);
    expect(observe([{ url: '/v1/matches', status: 500 }], 'warn').lines[0]).toMatchObject({
      level: 50,
      req: { url: '/v1/matches' },
    });
  });

  it('labels durations by route pattern, never by raw path, probes included, from one listener', async () => {
    const observed = observe([
      { url: '/v1/matches/7', status: 200, route: { path: '/v1/matches/:match_id' } },
      { url: '/nowhere', status: 404 },
      { url: '/elsewhere', status: 404, route: { path: '{/*splat}' } },
      { url: '/healthz', status: 200, route: { path: '/healthz' } },
    ]);
    const text = await observed.metrics();
    expect(text).toContain('route="/v1/matches/:match_id",status="200"');
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 2',
    );
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1',
    );
    expect(observed.listeners).toBe(1);
  });
});

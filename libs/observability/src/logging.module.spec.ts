import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import pino from 'pino';
import { isQuietPath, requestId, requestLogger } from './logging.module';

function call(header?: string): { id: string; echoed: unknown } {
  let echoed: unknown;
  const req = { headers: header === undefined ? {} : { 'x-request-id': header } } as IncomingMessage;
  const res = { setHeader: (_name: string, value: unknown) => (echoed = value) } as unknown as ServerResponse;
  return { id: requestId(req, res), echoed };
}

describe('requestId', () => {
  it("keeps a caller's sane request id and echoes it", () => {
    expect(call('abc-123')).toEqual({ id: 'abc-123', echoed: 'abc-123' });
  });

  it('replaces a missing or unsafe id with a fresh one', () => {
    const fresh = call();
    expect(fresh.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(call('bad id\nwith newline').id).not.toContain('\n');
    expect(call('x'.repeat(65)).id).toHaveLength(36);
  });
});

describe('isQuietPath', () => {
  it('silences probes and scrapes only', () => {
    expect(isQuietPath('/v1/health')).toBe(true);
    expect(isQuietPath('/v1/health/ready?x=1')).toBe(true);
    expect(isQuietPath('/healthz')).toBe(true);
    expect(isQuietPath('/metrics/')).toBe(true);
    expect(isQuietPath('/v1/sports')).toBe(false);
    expect(isQuietPath('/v1/book/odds?match=1')).toBe(false);
  });
});

describe('requestLogger', () => {
  function run(
    url: string,
    status: number,
    headers: Record<string, string> = {},
    level = 'info',
  ): Record<string, unknown>[] {
    const lines: string[] = [];
    const root = pino({ level }, { write: (line: string) => lines.push(line) });
    const res = Object.assign(new EventEmitter(), { statusCode: status, setHeader: () => undefined });
    const req = { url, originalUrl: url, method: 'GET', headers };
    requestLogger(root)(req as never, res as never, () => undefined);
    res.emit('finish');
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('writes one line per request with its id, the URL without key values and no headers', () => {
    const [line, ...rest] = run('/v1/sports?key=sk_secretsecret&x=1', 200, { 'x-api-key': 'sk_header' });
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/v1/sports?key=[redacted]&x=1' },
    });
    expect(line.reqId).toEqual((line.req as { id: string }).id);
    expect(JSON.stringify(line)).not.toContain('sk_');
  });

  it('logs server errors at error level and skips probes', () => {
    expect(run('/v1/matches', 503)[0]).toMatchObject({ level: 50, msg: 'request failed' });
    expect(run('/v1/health/ready', 200)).toEqual([]);
  });

  it('writes below info only the failures', () => {
    expect(run('/v1/matches', 200, {}, 'warn')).toEqual([]);
    expect(run('/v1/matches', 500, {}, 'warn')[0]).toMatchObject({ level: 50, req: { url: '/v1/matches' } });
  });
});

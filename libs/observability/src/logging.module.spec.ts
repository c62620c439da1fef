import type { IncomingMessage, ServerResponse } from 'node:http';
import { isQuietPath, requestId } from './logging.module';

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

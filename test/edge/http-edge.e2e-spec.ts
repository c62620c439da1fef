import { gzipSync } from 'node:zlib';
import { issueTestKey } from '../support/keys-cli';
import { type RawAnswer, rawRequest } from '../support/raw-http';
import { startService, type ServiceProcess } from '../support/service-process';

interface Edge {
  readonly name: 'fixtures-live' | 'odds-passthrough';
  readonly readyPath: string;
  /** The field that carries the message of every error body. */
  readonly field: 'detail' | 'error';
  readonly streamPath: string;
  /** A route that answers 200 without a key. */
  readonly healthPath: string;
  /** A keyed route that exists for GET only. */
  readonly routePath: string;
}

const EDGES: Edge[] = [
  {
    name: 'fixtures-live',
    readyPath: '/v1/health/ready',
    field: 'detail',
    streamPath: '/v1/stream',
    healthPath: '/v1/health',
    routePath: '/v1/leagues?sport=%25',
  },
  {
    name: 'odds-passthrough',
    readyPath: '/readyz',
    field: 'error',
    streamPath: '/v1/book/data',
    healthPath: '/healthz',
    routePath: '/v1/book/odds?match=1&match=null',
  },
];

function head(method: string, path: string, headers: string[] = []): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: edge.test', 'Connection: close', ...headers, '', ''].join(
    '\r\n',
  );
}

/**
 * Each fault found at the services' HTTP edge, replayed byte for byte: every
 * answer must be JSON in the service's error shape with a client status,
 * written before the connection closes.
 */
describe.each(EDGES)('HTTP edge of $name', (edge) => {
  let service: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    ({ key } = await issueTestKey({ scopes: 'fixtures,live_scores_statistics,odds', grants: ['book=1'] }));
    service = await startService(edge.name, edge.readyPath, { ROLE: 'api' });
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
  });

  function send(request: Buffer | string): Promise<RawAnswer> {
    return rawRequest(service.port, request);
  }

  function expectError(answer: RawAnswer, status: number | number[]): void {
    const allowed = Array.isArray(status) ? status : [status];
    expect({ reset: answer.reset, timedOut: answer.timedOut }).toEqual({ reset: false, timedOut: false });
    expect(allowed).toContain(answer.status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([edge.field]);
    expect(typeof body[edge.field]).toBe('string');
  }

  it('answers a body that is not in its Content-Encoding with 400, never 500', async () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const bodyText = 'abcdefg';
      expectError(
        await send(
          head(method, edge.routePath, [
            'Content-Encoding: gzip',
            'Content-Type: application/json',
            `Content-Length: ${bodyText.length}`,
          ]) + bodyText,
        ),
        400,
      );
    }
  });

  it('answers an unknown Content-Encoding with 415', async () => {
    expectError(
      await send(
        head('POST', edge.routePath, [
          'Content-Encoding: snappy',
          'Content-Length: 3',
          'Content-Type: text/plain',
        ]) + 'abc',
      ),
      415,
    );
  });

  it('answers an unknown Content-Encoding with 415 that a client still uploading a large body can read', async () => {
    const body = Buffer.alloc(1_200_000, 2);
    for (const method of ['POST', 'PUT']) {
      const request = Buffer.concat([
        Buffer.from(
          head(method, edge.routePath, ['Content-Encoding: snappy', `Content-Length: ${body.length}`]),
        ),
        body,
      ]);
      const writeSlowly = { parts: 6, gapMs: 100 };
      expectError(await rawRequest(service.port, request, 10_000, { writeSlowly }), 415);
    }
  });

  it('answers a body over the limit with 413', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, 'a');
    expectError(
      await send(
        Buffer.concat([
          Buffer.from(
            head('POST', edge.routePath, [
              `Content-Length: ${body.length}`,
              'Content-Type: application/json',
            ]),
          ),
          body,
        ]),
      ),
      413,
    );
    const gzipBomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0));
    expectError(
      await send(
        Buffer.concat([
          Buffer.from(
            head('PUT', edge.routePath, [
              `Content-Length: ${gzipBomb.length}`,
              'Content-Encoding: gzip',
              'Content-Type: application/json',
            ]),
          ),
          gzipBomb,
        ]),
      ),
      413,
    );
  });

  it('ignores the body of GET, HEAD and DELETE', async () => {
    const junk = '{not json';
    const get = await send(
      head('GET', edge.healthPath, [
        'Content-Type: application/json',
        'Content-Encoding: gzip',
        `Content-Length: ${junk.length}`,
      ]) + junk,
    );
    expect(get.status).toBe(200);
    const headAnswer = await send(
      head('HEAD', edge.healthPath, ['Content-Type: application/json', `Content-Length: ${junk.length}`]) +
        junk,
    );
    expect(headAnswer.status).toBe(200);
    expectError(
      await send(
        head('DELETE', edge.healthPath, [
          'Content-Type: application/json',
          `Content-Length: ${junk.length}`,
        ]) + junk,
      ),
      [404, 405],
    );
  });

  it('answers a method that a known path does not serve with 405 and Allow, an unknown path with 404', async () => {
    const path = edge.routePath.split('?')[0];
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await send(head(method, path, ['Content-Length: 0']));
      expectError(answer, 405);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
    const unknown = await send(head('POST', '/v1/no-such-route', ['Content-Length: 0']));
    expectError(unknown, 404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('answers a request target that a legacy URL parser would read as an authority with 404 in its shape', async () => {
    // Found by the fuzz test (seed 2094530380): in these, Express's URL parsing finds no path at
    // all, and its router would answer an HTML 404 itself.
    const targets = ['/\\Z54*#@?=%F3&key=-1', '/\\a#@b?c', '/\\#@?', '//a#@b?c=1'];
    for (const target of targets) {
      expectError(await send(head('GET', target)), 404);
      expectError(await send(head('DELETE', target, ['Content-Length: 0'])), 404);
    }
  });

  it('answers a target whose would-be authority the legacy URL parser rejects with 404, the process alive', async () => {
    // Found by the fuzz test (seed 37709967): `url.parse` throws on such a host, and the
    // exception, raised in a request listener, ended the process.
    const targets = ['//[+N$6@[#?offset=~O&league=-1', '//a@[#?x=1', '/\\[x@[#'];
    const upgrade = ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13'];
    for (const target of targets) {
      expectError(await send(head('GET', target)), 404);
      expectError(await send(head('GET', target, upgrade)), 404);
    }
    expect((await send(head('GET', edge.healthPath))).status).toBe(200);
  });

  it('serves a request that asks to upgrade a path that is no stream as an ordinary request', async () => {
    const upgrade = ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13'];
    expectError(await send(head('GET', '/v1/99999', upgrade)), 404);
    const health = await send(head('GET', edge.healthPath, upgrade));
    expect(health.status).toBe(200);
    const h2c = await send(
      head('GET', edge.healthPath, ['Upgrade: h2c', 'Connection: Upgrade, HTTP2-Settings']),
    );
    expect(h2c.status).toBe(200);
  });

  it('answers every failed stream handshake in the service shape', async () => {
    const path = `${edge.streamPath}?key=${key}`;
    expectError(await send(head('GET', path, ['Upgrade: websocket', 'Connection: Upgrade'])), 400);
    expectError(
      await send(
        head('GET', path, [
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Key: short',
          'Sec-WebSocket-Version: 13',
        ]),
      ),
      400,
    );
    const badVersion = await send(
      head('GET', path, [
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 99',
      ]),
    );
    expectError(badVersion, 400);
    expect(badVersion.headers['sec-websocket-version']).toBe('13');
    expectError(
      await send(
        head('POST', path, [
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          'Sec-WebSocket-Version: 13',
        ]),
      ),
      405,
    );
    expectError(
      await send(
        head('GET', edge.streamPath, [
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          'Sec-WebSocket-Version: 13',
        ]),
      ),
      401,
    );
  });

  it('answers requests the HTTP parser rejects with JSON before closing', async () => {
    expectError(await send('GET /v1 HTTP/1.1 extra\r\nHost: x\r\n\r\n'), 400);
    expectError(await send('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 hello tls\r\n\r\n'), 400);
    expectError(await send(head('GET', edge.healthPath, ['Bad Header Name: 1'])), 400);
    expectError(await send(head('GET', edge.healthPath, ['X-Big: ' + 'a'.repeat(20_000)])), 431);
    expectError(
      await send(
        head('POST', edge.routePath, ['Transfer-Encoding: chunked']) + 'zz\r\nnot a chunk\r\n0\r\n\r\n',
      ),
      400,
    );
    expectError(await send(head('GET', edge.healthPath, ['Content-Length: 1', 'Content-Length: 2'])), 400);
  });

  it('answers in its shape what Node would otherwise answer, or drop, by itself', async () => {
    expectError(await send('GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'), 400);
    expect((await send(head('GET', edge.healthPath, ['Expect: something-else']))).status).toBe(200);
    expectError(await send(head('CONNECT', '/v1/99999')), [404, 405]);
    const headAnswer = await send(
      head('HEAD', `${edge.routePath}&key=sk_nope`, [
        'Content-Type: application/json; charset=klingon',
        'Content-Length: 0',
      ]),
    );
    expect(headAnswer.status).toBe(401);
    expectError(
      await send(head('POST', edge.routePath, ['Content-Encoding: br, identity', 'Content-Length: 0'])),
      415,
    );
  });

  it('answers a very long request line with 414 that the client can read', async () => {
    for (const length of [20_000, 200_000, 2_000_000]) {
      const answer = await send(head('GET', `${edge.healthPath}?q=${'x'.repeat(length)}`));
      expectError(answer, 414);
    }
  });

  it('is still alive and healthy', async () => {
    const health = await send(head('GET', edge.healthPath));
    expect(health.status).toBe(200);
    expect(service.child.exitCode).toBeNull();
  });
});

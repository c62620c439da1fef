import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** What a fuzzed service looks like from outside. */
export interface FuzzSurface {
  /** Real routes with real-looking query strings, without a key. */
  readonly routes: readonly string[];
  readonly streamPath: string;
  /** A key that passes, so the generated requests reach the routes' own code. */
  readonly key: string;
}

/** Bytes to write on one fresh connection, with a label for the summary. */
export interface FuzzRequest {
  readonly kind: 'http' | 'raw';
  readonly method: string;
  readonly bytes: Buffer;
}

const METHODS = [
  'GET',
  'GET',
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
];
const ODD_METHODS = ['get', 'FOO', 'PROPFIND', 'M-SEARCH', 'LINK', 'QUERY', 'SEARCH'];
const JUNK_PATHS = [
  '/',
  '*',
  '//',
  '/v1',
  '/v1/',
  '/v1/99999',
  '/v1/%zz',
  '/v1/%',
  '/v1/%E0%A4%A',
  '/v1/matches/%00',
  '/v1/matches/1e99',
  '/v1/matches/-1/live',
  '/v1/matches/9007199254740993/result',
  '/v1/../../etc/passwd',
  '/v1/book/../book/sports',
  '/v1/book/odds/extra',
  '/metrics',
  '/healthz',
  '/readyz',
  '/v1/health',
  '/v1/health/ready',
  '/v1/docs',
  '/v1/docs/%zz',
  '/v1/book/docs',
  '/board/../../etc/passwd',
  'http://127.0.0.1/v1/sports',
  '/v1/sports;jsessionid=1',
  '/%2e%2e/%2e%2e/',
];
const ENCODINGS = [
  'gzip',
  'deflate',
  'br',
  'zstd',
  'identity',
  'compress',
  'snappy',
  'gzip, gzip',
  'GZIP',
  '',
  'x'.repeat(300),
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=klingon',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  ';;;',
];

const text = (max: number) => fc.string({ unit: 'binary', maxLength: max });
const asciiText = (max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: max,
  });

/** Query values: ordinary, bad percent-encoding, huge (some beyond the header limit). */
const queryValue = fc.oneof(
  { weight: 5, arbitrary: fc.oneof(fc.integer().map(String), asciiText(12).map(encodeURIComponent)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%FF%FE', 'null', '-1', '1.5', '1e309', ''),
  },
  { weight: 2, arbitrary: text(40).map((value) => encodeURIComponent(value)) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 120_000 }).map((length) => 'x'.repeat(length)) },
);
const queryName = fc.constantFrom(
  'sport',
  'league',
  'match',
  'match_id',
  'status',
  'limit',
  'offset',
  'from',
  'to',
  'key',
  'q',
  '',
  '%',
  'a[b]',
);

function queryString(keyValue: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(fc.tuple(queryName, queryValue), { maxLength: 5 }),
      fc.option(keyValue, { nil: undefined }),
    )
    .map(([pairs, key]) => {
      const all = key === undefined ? pairs : [...pairs, ['key', key] as [string, string]];
      return all.length === 0 ? '' : '?' + all.map(([name, value]) => `${name}=${value}`).join('&');
    });
}

function target(surface: FuzzSurface): fc.Arbitrary<string> {
  const keyValue = fc.constantFrom(surface.key, 'sk_nope', '', surface.key + '%00');
  const path = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...surface.routes) },
    { weight: 3, arbitrary: fc.constantFrom(...JUNK_PATHS, surface.streamPath) },
    { weight: 1, arbitrary: asciiText(60).map((junk) => '/' + junk.replace(/ /g, '%20')) },
  );
  return fc
    .tuple(path, queryString(keyValue))
    .map(([p, q]) => (p.includes('?') && q ? p + '&' + q.slice(1) : p + q));
}

type Header = readonly [string, string];

function headers(surface: FuzzSurface): fc.Arbitrary<Header[]> {
  const one: fc.Arbitrary<Header[]> = fc.oneof(
    fc
      .constantFrom(surface.key, 'sk_nope', '', 'sk_' + 'a'.repeat(5000))
      .map((key) => [['X-API-Key', key] as const]),
    fc.constantFrom(...CONTENT_TYPES).map((type) => [['Content-Type', type] as const]),
    fc.constantFrom(...ENCODINGS).map((encoding) => [['Content-Encoding', encoding] as const]),
    fc.constant([
      ['Upgrade', 'websocket'],
      ['Connection', 'Upgrade'],
    ] as Header[]),
    fc
      .tuple(fc.constantFrom('dGhlIHNhbXBsZSBub25jZQ==', 'short', ''), fc.constantFrom('13', '8', '99', 'x'))
      .map(
        ([wsKey, version]) =>
          [
            ['Upgrade', 'websocket'],
            ['Connection', 'Upgrade'],
            ['Sec-WebSocket-Key', wsKey],
            ['Sec-WebSocket-Version', version],
          ] as Header[],
      ),
    fc.constant([
      ['Upgrade', 'h2c'],
      ['Connection', 'Upgrade, HTTP2-Settings'],
      ['HTTP2-Settings', 'AAMAAABkAARAAAAAAAIAAAAA'],
    ] as Header[]),
    fc.constantFrom('100-continue', 'something-else').map((value) => [['Expect', value] as const]),
    fc.constantFrom('https://partner.example', 'null', '*').map((origin) => [['Origin', origin] as const]),
    fc.constantFrom('*', '"abc"', 'W/"x"').map((tag) => [['If-None-Match', tag] as const]),
    fc.constantFrom('bytes=0-1', 'bytes=x', 'bytes=5-1').map((range) => [['Range', range] as const]),
    fc
      .constantFrom('application/xml', '*/*', 'text/html;q=0.1', '')
      .map((accept) => [['Accept', accept] as const]),
    // Only lengths that promise no bytes: a promised body that never comes keeps any server waiting.
    fc.constantFrom('0', '-1', 'abc', '00').map((length) => [['Content-Length', length] as const]),
    fc.constantFrom('gzip', 'chunked, gzip', 'identity').map((te) => [['Transfer-Encoding', te] as const]),
    fc.integer({ min: 1, max: 40_000 }).map((length) => [['X-Huge', 'h'.repeat(length)] as const]),
    fc
      .integer({ min: 10, max: 300 })
      .map((count) => Array.from({ length: count }, (_, i) => [`X-Many-${i}`, String(i)] as const)),
    fc.tuple(asciiText(20), text(40)).map(([name, value]) => [[name || 'X', value] as const]),
  );
  return fc.array(one, { maxLength: 4 }).map((groups) => groups.flat());
}

type Body = { readonly bytes: Buffer; readonly encoding?: string };

function body(): fc.Arbitrary<Body> {
  const json = fc.jsonValue({ maxDepth: 4 }).map((value) => Buffer.from(JSON.stringify(value) ?? 'null'));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant({ bytes: Buffer.alloc(0) }) },
    { weight: 2, arbitrary: json.map((bytes) => ({ bytes })) },
    {
      weight: 2,
      arbitrary: fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({ bytes: Buffer.from(bytes) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(json, fc.constantFrom('gzip', 'deflate', 'br'))
        .map(([bytes, encoding]) => ({ bytes: compress(bytes, encoding), encoding })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 50_000, max: 1_500_000 }), fc.integer({ min: 0, max: 255 }))
        .map(([size, fill]) => ({ bytes: Buffer.alloc(size, fill) })),
    },
  );
}

function compress(bytes: Buffer, encoding: string): Buffer {
  if (encoding === 'gzip') return gzipSync(bytes);
  if (encoding === 'deflate') return deflateSync(bytes);
  return brotliCompressSync(bytes);
}

/** A request with HTTP's framing: the parser accepts most of them, the application decides. */
function httpRequest(surface: FuzzSurface): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom(...METHODS) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
      ),
      target: target(surface),
      headers: headers(surface),
      body: body(),
      framing: fc.constantFrom('length', 'length', 'chunked', 'none'),
      version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'),
    })
    .map(({ method, target: path, headers: extra, body: { bytes, encoding }, framing, version }) => {
      const lines = [`${method} ${path} ${version}`, 'Host: fuzz.test'];
      if (encoding !== undefined) lines.push(`Content-Encoding: ${encoding}`);
      for (const [name, value] of extra) lines.push(`${name}: ${value}`);
      lines.push('Connection: close');
      let payload = bytes;
      if (framing === 'length') lines.push(`Content-Length: ${bytes.length}`);
      if (framing === 'chunked') {
        lines.push('Transfer-Encoding: chunked');
        payload = Buffer.concat([
          Buffer.from(`${bytes.length.toString(16)}\r\n`),
          bytes,
          Buffer.from('\r\n0\r\n\r\n'),
        ]);
        if (bytes.length === 0) payload = Buffer.from('0\r\n\r\n');
      }
      if (framing === 'none') payload = Buffer.alloc(0);
      return {
        kind: 'http' as const,
        method,
        bytes: Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), payload]),
      };
    });
}

/** Bytes that HTTP's parser refuses: broken request lines, headers, chunking, or no HTTP at all. */
function rawRequest(surface: FuzzSurface): fc.Arbitrary<FuzzRequest> {
  const route = fc.constantFrom(...surface.routes);
  const malformed: fc.Arbitrary<string | Buffer>[] = [
    fc
      .uint8Array({ minLength: 1, maxLength: 3000 })
      .map((bytes) => Buffer.concat([Buffer.from(bytes), Buffer.from('\r\n\r\n')])),
    route.map((path) => `GET ${path} HTTP/1.1 extra\r\nHost: x\r\n\r\n`),
    route.map((path) => `GET ${path} HTTP/9.9\r\nHost: x\r\n\r\n`),
    route.map((path) => `GET ${path}\r\n\r\n`),
    route.map((path) => `GET  ${path}  HTTP/1.1\r\nHost: x\r\n\r\n`),
    route.map((path) => `GET ${path} HTTP/1.1\nHost: x\n\n`),
    route.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`),
    route.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Fold: a\r\n  folded\r\n\r\n`),
    route.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Nul: a\u0000b\r\n\r\n`),
    route.map(
      (path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
    ),
    route.map(
      (path) =>
        `GET ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ),
    route.map(
      (path) =>
        `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nbad\r\n0\r\n\r\n`,
    ),
    route.map(
      (path) =>
        `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;${'e'.repeat(20_000)}\r\nabc\r\n0\r\n\r\n`,
    ),
    route.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n`),
    route.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n: empty name\r\n\r\n`),
    fc
      .integer({ min: 17_000, max: 300_000 })
      .map((length) => `GET /${'u'.repeat(length)} HTTP/1.1\r\nHost: x\r\n\r\n`),
    fc
      .integer({ min: 300, max: 2_000 })
      .map(
        (count) =>
          `GET / HTTP/1.1\r\n${Array.from({ length: count }, (_, i) => `X-H${i}: ${'v'.repeat(40)}`).join('\r\n')}\r\n\r\n`,
      ),
    fc.constant(Buffer.from('16030100a5010000a10303', 'hex')),
    fc.constant('HELLO\r\n\r\n'),
  ];
  return fc.oneof(...malformed).map((bytes) => ({
    kind: 'raw' as const,
    method: 'RAW',
    bytes: typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes,
  }));
}

/** The generated requests of one run: about one in six is malformed on the wire. */
export function fuzzRequests(surface: FuzzSurface, seed: number, count: number): FuzzRequest[] {
  const request = fc.oneof(
    { weight: 5, arbitrary: httpRequest(surface) },
    { weight: 1, arbitrary: rawRequest(surface) },
  );
  return fc.sample(request, { seed, numRuns: count });
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { SportsbookClient } from './sportsbook-client';
import { JSON_PART_BYTES, marketsFullInParts, parseMarketsFull, parseSports } from '../upstream';
import { aMoneyline } from '../../../../test/odds-passthrough/sportsbook-factory';
import { timersLeftPending } from '../../../../test/support/pending-timers';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const TIMEOUT_MS = 300;

describe('SportsbookClient', () => {
  let server: Server;
  let handler: Handler;
  let client: SportsbookClient;

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new SportsbookClient(`http://127.0.0.1:${port}/book`, TIMEOUT_MS);
  });

  afterAll(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => {
    return (_req, res) =>
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  it('reads a list under the base path, then answers a 304 from the remembered body', async () => {
    const seen: { url?: string; etag?: string }[] = [];
    handler = (req, res) => {
      seen.push({ url: req.url, etag: req.headers['if-none-match'] });
      if (req.headers['if-none-match'] === '"v1"') res.writeHead(304).end();
      else json(200, [{ id: 29, name: 'Soccer' }], { ETag: '"v1"' })(req, res);
    };
    expect(await client.get('sports', parseSports)).toEqual({
      kind: 'ok',
      value: [{ id: 29, name: 'Soccer' }],
      notModified: false,
    });
    expect(await client.get('sports', parseSports)).toEqual({
      kind: 'ok',
      value: [{ id: 29, name: 'Soccer' }],
      notModified: true,
    });
    expect(seen).toEqual([
      { url: '/book/sports', etag: undefined },
      { url: '/book/sports', etag: '"v1"' },
    ]);
    client.forget();
  });

  it('leaves no deadline timer pending once an answer is read, whatever its status', async () => {
    // A deadline left pending wakes the process when it expires, long after the answer.
    const left = await timersLeftPending(TIMEOUT_MS, async () => {
      handler = json(200, [{ id: 29, name: 'Soccer' }]);
      await client.get('sports', parseSports);
      handler = json(503, {});
      await client.get('sports', parseSports);
    });
    expect(left).toBe(0);
  });

  it('decodes a compressed body, as the book may send one', async () => {
    const sports = [{ id: 29, name: 'Soccer' }];
    for (const [encoding, encode] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      handler = (req, res) => {
        expect(req.headers['accept-encoding']).toContain(encoding);
        res
          .writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': encoding })
          .end(encode(JSON.stringify(sports)));
      };
      expect(await client.get('sports', parseSports)).toEqual({
        kind: 'ok',
        value: sports,
        notModified: false,
      });
    }
  });

  it('sends again on a new connection when the book reset the idle one it reused', async () => {
    // Answers the first request of each connection and resets the connection on the second, as a
    // book does that closes an idle connection just as the client reuses it.
    const body = JSON.stringify([{ id: 29, name: 'Soccer' }]);
    const book = createNetServer((socket) => {
      let requests = 0;
      socket.on('data', (data) => {
        requests += data.toString('latin1').split('\r\n\r\n').length - 1;
        if (requests === 1) {
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
              `Connection: keep-alive\r\n\r\n${body}`,
          );
        } else socket.resetAndDestroy();
      });
    });
    await new Promise<void>((resolve) => book.listen(0, '127.0.0.1', resolve));
    const reused = new SportsbookClient(
      `http://127.0.0.1:${(book.address() as AddressInfo).port}/`,
      TIMEOUT_MS,
    );
    try {
      for (let i = 0; i < 3; i++) expect((await reused.get('sports', parseSports)).kind).toBe('ok');
    } finally {
      reused.close();
      await new Promise<void>((resolve) => book.close(() => resolve()));
    }
  });

  it('reports a refused connection as a fault naming it', async () => {
    const closed = new SportsbookClient('http://127.0.0.1:1/book', TIMEOUT_MS);
    const outcome = await closed.get('sports', parseSports);
    expect(outcome.kind === 'fault' && outcome.error).toContain('GET sports: connect ECONNREFUSED');
  });

  it('tells a forgotten cursor (410) and an unavailable table (503) apart from faults', async () => {
    handler = json(410, {});
    expect(await client.get('sports', parseSports)).toEqual({ kind: 'gone' });
    handler = json(503, {});
    expect(await client.get('sports', parseSports)).toEqual({ kind: 'unavailable', status: 503 });
  });

  it.each<[string, Handler, string]>([
    ['a 5xx', json(500, {}), 'GET sports: HTTP 500'],
    ['a body of the wrong shape', json(200, { sports: 'no' }), 'GET sports: '],
    [
      'a body that is not JSON',
      (_req, res) => res.writeHead(200).end('<html>'),
      'GET sports: body is not JSON',
    ],
    ['no answer in time', () => undefined, 'GET sports: timed out'],
  ])('reports %s as a fault without throwing', async (_name, answer, error) => {
    handler = answer;
    const outcome = await client.get('sports', parseSports);
    expect(outcome.kind).toBe('fault');
    expect(outcome.kind === 'fault' ? outcome.error : '').toContain(error);
  });

  describe('a big answer read in parts', () => {
    const markets = Array.from({ length: 4_000 }, (_, i) => ({ ...aMoneyline(), key: `s;0;m;${i}` }));
    const body = { last: 41, markets };

    it('answers what a one-go read answers', async () => {
      expect(JSON.stringify(body).length).toBeGreaterThan(2 * JSON_PART_BYTES);
      handler = json(200, body);
      const parted = await client.getInParts('sports/29/markets', 'markets', marketsFullInParts);
      const whole = await client.get('sports/29/markets', parseMarketsFull);
      expect(parted).toEqual(whole);
      expect(parted.kind === 'ok' && parted.value.markets).toHaveLength(markets.length);
    });

    it.each<[string, Handler, string]>([
      [
        'a body that is not JSON',
        (_req, res) => res.writeHead(200).end(JSON.stringify(body).slice(0, -2)),
        'GET m: body is not JSON (',
      ],
      ['a body of the wrong shape', json(200, { ...body, last: 'x' }), 'GET m: last: expected an integer'],
      ['no answer in time', () => undefined, 'GET m: timed out'],
    ])('reports %s as the one-go read does', async (_name, answer, error) => {
      handler = answer;
      const parted = await client.getInParts('m', 'markets', marketsFullInParts);
      expect(parted).toEqual(await client.get('m', parseMarketsFull));
      expect(parted.kind === 'fault' && parted.error).toContain(error);
    });
  });
});

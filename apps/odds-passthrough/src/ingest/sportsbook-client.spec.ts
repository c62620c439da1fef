import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SportsbookClient } from './sportsbook-client';
import { parseSports } from '../upstream';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('SportsbookClient', () => {
  let server: Server;
  let handler: Handler;
  let client: SportsbookClient;

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new SportsbookClient(`http://127.0.0.1:${port}/book`, 300);
  });

  afterAll(async () => {
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
});

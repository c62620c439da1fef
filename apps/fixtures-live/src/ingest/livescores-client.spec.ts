import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConfigService } from '@nestjs/config';
import type { FixturesEnv } from '../config/fixtures.env';
import { timersLeftPending } from '../../../../test/support/pending-timers';
import { parseSports } from '../upstream/livescores.parsers';
import { FeedFault, LivescoresClient } from './livescores-client';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The client's deadline per request (REQUEST_TIMEOUT_MS). */
const DEADLINE_MS = 10_000;

describe('LivescoresClient', () => {
  let server: Server;
  let handler: Handler;
  let client: LivescoresClient;

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const config = { get: () => `http://127.0.0.1:${port}/` } as unknown as ConfigService<FixturesEnv, true>;
    client = new LivescoresClient(config);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const answer = (status: number, body: string): Handler => {
    return (_req, res) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
  };

  it('reads and parses a list, gives null on 404 and a fault on an error status or a broken body', async () => {
    handler = answer(200, JSON.stringify([{ id: 'sp-1', key: 'soccer', name: 'Soccer' }]));
    await expect(client.list('/sports', parseSports)).resolves.toHaveLength(1);
    handler = answer(404, '{}');
    await expect(client.get('/sports', parseSports)).resolves.toBeNull();
    await expect(client.list('/sports', parseSports)).rejects.toThrow(new FeedFault('/sports', 'HTTP 404'));
    handler = answer(503, '{}');
    await expect(client.get('/sports', parseSports)).rejects.toMatchObject({ status: 503 });
    handler = answer(200, '{"cut');
    await expect(client.get('/sports', parseSports)).rejects.toThrow('provider /sports: body is not JSON');
  });

  it('leaves no deadline timer pending once an answer is read, whatever its status', async () => {
    // Each request of a catalog poll would otherwise wake the process once more, 10 s later.
    const left = await timersLeftPending(DEADLINE_MS, async () => {
      handler = answer(200, JSON.stringify([{ id: 'sp-1', key: 'soccer', name: 'Soccer' }]));
      await client.get('/sports', parseSports);
      handler = answer(404, '{}');
      await client.get('/sports', parseSports);
      handler = answer(500, '{}');
      await client.get('/sports', parseSports).catch(() => undefined);
    });
    expect(left).toBe(0);
  });
});

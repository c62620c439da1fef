import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HttpException } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import WebSocket from 'ws';
import { waitFor } from '../../../test/support/wait-for';
import type { StreamConnection } from './stream-connection';
import type { HandshakeRequest } from './stream-endpoint';
import { CLIENTS_PER_TURN, StreamServer } from './stream-server';

interface Opened {
  readonly socket: WebSocket;
  readonly messages: string[];
}

function open(url: string, options?: WebSocket.ClientOptions): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    const messages: string[] = [];
    socket.on('message', (data: Buffer) => messages.push(data.toString()));
    socket.once('open', () => resolve({ socket, messages }));
    socket.once('error', reject);
  });
}

function refused(url: string, options?: WebSocket.ClientOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once('open', () => reject(new Error('the handshake was accepted')));
    socket.once('error', () => undefined);
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
  });
}

/** Writes `request` on a fresh connection and reads until the server closes it. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** V8's collector, reachable without starting jest with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

describe('StreamServer', () => {
  let http: Server;
  let server: StreamServer;
  let base: string;
  const accepted: StreamConnection<string>[] = [];
  let keyValid = true;
  let generation = 1;
  let keyChecks = 0;

  beforeEach(async () => {
    http = createServer((_request, response) => response.end('plain http'));
    server = new StreamServer({ httpAdapter: { getHttpServer: () => http } } as unknown as HttpAdapterHost, {
      shutdownGraceMs: 500,
    });
    server.register<string, unknown>({
      path: '/v1/stream',
      authenticate: (request) => {
        keyChecks += 1;
        return request.headers['x-api-key'] === 'good' && keyValid
          ? Promise.resolve(`principal-${generation}`)
          : Promise.reject(new Error('no key'));
      },
      reject: (error) =>
        error instanceof HttpException
          ? { status: error.getStatus(), body: { detail: error.message } }
          : { status: 401, body: { detail: 'invalid or inactive API key' } },
      accept: (connection) => {
        accepted.push(connection);
        connection.onMessage((text) => connection.sendText(`echo:${text}`));
      },
      errorFrame: (message) => JSON.stringify({ error: message }),
    });
    server.register<string, unknown>({
      path: '/v1/flood',
      authenticate: () => Promise.resolve('principal-2'),
      reject: () => ({ status: 500, body: {} }),
      accept: (connection) => accepted.push(connection),
      errorFrame: (message) => JSON.stringify({ error: message }),
      limits: { highWaterBytes: 64 * 1024, maxQueuedBytes: 256 * 1024 },
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    accepted.length = 0;
    keyValid = true;
    generation = 1;
    keyChecks = 0;
    await server.beforeApplicationShutdown();
    server.onApplicationShutdown();
    await new Promise((resolve) => http.close(resolve));
  });

  it("keeps no open socket's handshake request alive, only what its key is read from", async () => {
    const gc = collector();
    let handshake: WeakRef<IncomingMessage> | undefined;
    http.prependListener('upgrade', (request: IncomingMessage) => (handshake = new WeakRef(request)));
    const { socket } = await open(`${base}/v1/stream`, { headers: { 'X-API-Key': 'good' } });
    await waitFor(() => accepted.length === 1, { timeoutMs: 2000 });
    await waitFor(
      () => {
        gc();
        return handshake?.deref() === undefined;
      },
      { timeoutMs: 2000, intervalMs: 50, what: 'the handshake request collected' },
    );
    await server.revalidate();
    expect(accepted[0].principal).toBe('principal-1');
    socket.close();
  });

  it('answers a failed handshake with the endpoint status and JSON body, without upgrading', async () => {
    await expect(refused(`${base}/v1/stream`)).resolves.toEqual({
      status: 401,
      body: '{"detail":"invalid or inactive API key"}',
    });
    expect(accepted).toHaveLength(0);
  });

  it('serves an upgrade to a path with no endpoint, or to another protocol, as a plain HTTP request', async () => {
    await expect(refused(`${base}/v1/elsewhere`)).resolves.toEqual({ status: 200, body: 'plain http' });
    const port = (http.address() as AddressInfo).port;
    const h2c = await rawExchange(
      port,
      'GET /v1/stream HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n',
    );
    expect(h2c).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*plain http$/);
  });

  it('closes the socket of an upgrade whose handling throws, and lets no rejection escape', async () => {
    const escaped: unknown[] = [];
    const onRejection = (reason: unknown) => escaped.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      // A fault below the router: a request listener that throws while an upgrade nobody takes
      // is served as a plain request. Escaping as a rejection, it would end the process.
      http.prependListener('request', (request: IncomingMessage) => {
        if (request.url === '/v1/broken') throw new Error('a listener failed');
      });
      const answer = await rawExchange(
        (http.address() as AddressInfo).port,
        'GET /v1/broken HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
      );
      expect(answer).toBe('');
      await new Promise((resolve) => setImmediate(resolve));
      expect(escaped).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('answers a malformed handshake in the endpoint shape before checking the key', async () => {
    const port = (http.address() as AddressInfo).port;
    const answer = await rawExchange(
      port,
      'GET /v1/stream HTTP/1.1\r\nHost: x\r\nX-API-Key: good\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/json/);
    expect(answer).toMatch(
      /\r\n\r\n\{"detail":"invalid WebSocket handshake: missing or invalid Sec-WebSocket-Key"\}$/,
    );
    expect(accepted).toHaveLength(0);
  });

  it('refuses one socket more than a key may hold with 429, counting every endpoint, until one closes', async () => {
    const limited = (path: string) =>
      server.register<string, unknown>({
        path,
        authenticate: (request) => Promise.resolve(String(request.headers['x-api-key'])),
        reject: (error) =>
          error instanceof HttpException
            ? { status: error.getStatus(), body: { detail: error.message } }
            : { status: 401, body: { detail: 'no' } },
        accept: (connection) => accepted.push(connection),
        errorFrame: (message) => JSON.stringify({ error: message }),
        connectionLimit: { max: 2, keyOf: (principal) => principal },
      });
    limited('/v1/limited-a');
    limited('/v1/limited-b');
    const as = (key: string) => ({ headers: { 'x-api-key': key } });
    const first = await open(`${base}/v1/limited-a`, as('a'));
    await open(`${base}/v1/limited-b`, as('a'));
    await expect(refused(`${base}/v1/limited-a`, as('a'))).resolves.toEqual({
      status: 429,
      body: '{"detail":"connection limit reached"}',
    });
    await open(`${base}/v1/limited-a`, as('b'));
    first.socket.close();
    await closed(first.socket);
    await waitFor(
      async () => {
        try {
          (await open(`${base}/v1/limited-b`, as('a'))).socket.close();
          return true;
        } catch {
          return false;
        }
      },
      { timeoutMs: 2000, what: 'a socket of key a to be accepted again' },
    );
  });

  it('takes client frames under 64 KiB and closes the socket with 1009 on one of 64 KiB', async () => {
    const client = await open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' } });
    client.socket.send('a'.repeat(64 * 1024 - 1));
    await waitFor(() => client.messages.length > 0, { timeoutMs: 2000 });
    const code = closed(client.socket);
    client.socket.send('a'.repeat(64 * 1024));
    await expect(code).resolves.toBe(1009);
  });

  it('lets a client still sending an oversized frame read the 1009, never a cut connection', async () => {
    const clients = await Promise.all(
      Array.from({ length: 8 }, () => open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' } })),
    );
    const codes = clients.map(({ socket }) => closed(socket));
    for (const { socket } of clients) socket.send(Buffer.alloc(4 * 1024 * 1024, 0x61));
    expect(await Promise.all(codes)).toEqual(clients.map(() => 1009));
  });

  it('hands an authenticated client to the endpoint with its principal, whatever the query string', async () => {
    const client = await open(`${base}/v1/stream?x=1`, { headers: { 'x-api-key': 'good' } });
    client.socket.send('hello');
    await waitFor(() => client.messages.length > 0, { timeoutMs: 2000 });
    expect(client.messages).toEqual(['echo:hello']);
    expect(accepted[0].principal).toBe('principal-1');
    expect(server.connectionCount).toBe(1);
    client.socket.close();
  });

  it('checks keys again: a changed principal replaces the old one, a revoked key loses its socket (1008)', async () => {
    const client = await open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' } });
    generation = 2;
    await server.revalidate();
    expect(accepted[0].principal).toBe('principal-2');
    const code = closed(client.socket);
    keyValid = false;
    await server.revalidate();
    await expect(code).resolves.toBe(1008);
  });

  it("checks keys again with the handshake's URL and only the headers the endpoint reads keys from", async () => {
    const checked: HandshakeRequest[] = [];
    server.register<string, unknown>({
      path: '/v1/keyed',
      authenticate: (request) => {
        checked.push(request);
        return Promise.resolve('principal');
      },
      reject: () => ({ status: 401, body: {} }),
      accept: (connection) => accepted.push(connection),
      errorFrame: (message) => JSON.stringify({ error: message }),
      keyHeaders: ['x-api-key'],
    });
    const inHeader = await open(`${base}/v1/keyed?from=header`, {
      headers: { 'x-api-key': 'good', 'user-agent': 'probe' },
    });
    const inUrl = await open(`${base}/v1/keyed?key=good`, { headers: { 'user-agent': 'probe' } });
    await waitFor(() => accepted.length === 2, { timeoutMs: 2000 });
    checked.length = 0;
    await server.revalidate();
    expect(checked.map(({ url, headers }) => ({ url, headers: { ...headers } }))).toEqual([
      { url: '/v1/keyed?from=header', headers: { 'x-api-key': 'good' } },
      { url: '/v1/keyed?key=good', headers: {} },
    ]);
    inHeader.socket.close();
    inUrl.socket.close();
  });

  it('closes every client with 1001 at shutdown', async () => {
    const first = await open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' } });
    const second = await open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' } });
    const codes = Promise.all([closed(first.socket), closed(second.socket)]);
    await server.beforeApplicationShutdown();
    await expect(codes).resolves.toEqual([1001, 1001]);
    expect(server.connectionCount).toBe(0);
  });

  it('closes a client that stops reading with 1013 once even the conflated queue is full', async () => {
    const client = await open(`${base}/v1/flood`);
    const code = closed(client.socket);
    (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    await waitFor(() => accepted.length === 1, { timeoutMs: 2000 });
    const chunk = Buffer.alloc(100 * 1024, 'x');
    let kept = 0;
    // Distinct frames cannot conflate; the socket's own buffer fills first, then the queue.
    for (let i = 0; i < 400 && accepted[0].send({ data: chunk }); i += 1) kept += 1;
    expect(kept).toBeLessThan(400);
    (client.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await expect(code).resolves.toBe(1013);
  });

  it('cuts off a peer that leaves two pings unanswered, and keeps one that answers', async () => {
    const silent = await open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' }, autoPong: false });
    const lively = await open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' } });
    const silentClosed = closed(silent.socket);
    let pongs = 0;
    for (const connection of accepted)
      (connection as unknown as { socket: WebSocket }).socket.on('pong', () => (pongs += 1));
    void server.sweep();
    await waitFor(() => pongs === 1, { timeoutMs: 2000 });
    void server.sweep();
    await waitFor(() => pongs === 2, { timeoutMs: 2000 });
    expect(server.connectionCount).toBe(2);
    void server.sweep();
    await silentClosed;
    await waitFor(() => server.connectionCount === 1, { timeoutMs: 2000 });
    expect(lively.socket.readyState).toBe(WebSocket.OPEN);
    lively.socket.close();
  });

  it('pings and checks keys a slice of clients per turn of the event loop, every client in the end', async () => {
    const clients = await Promise.all(
      Array.from({ length: CLIENTS_PER_TURN + 1 }, () =>
        open(`${base}/v1/stream`, { headers: { 'x-api-key': 'good' } }),
      ),
    );
    await waitFor(() => accepted.length === clients.length, { timeoutMs: 5000 });
    const pinged = () =>
      accepted.filter(
        (connection) =>
          (connection as unknown as { socket: { unansweredPings: number } }).socket.unansweredPings > 0,
      ).length;
    for (const { socket } of clients) socket.pause();

    const sweep = server.sweep();
    expect(pinged()).toBe(CLIENTS_PER_TURN);
    await sweep;
    expect(pinged()).toBe(clients.length);

    keyChecks = 0;
    const revalidation = server.revalidate();
    expect(keyChecks).toBe(CLIENTS_PER_TURN);
    await revalidation;
    expect(keyChecks).toBe(clients.length);
    for (const { socket } of clients) socket.terminate();
  });
});

describe('StreamServer buffer budget', () => {
  let http: Server;
  let server: StreamServer;
  let base: string;
  const accepted: StreamConnection<string>[] = [];
  const MB = 1024 * 1024;

  beforeEach(async () => {
    http = createServer();
    server = new StreamServer({ httpAdapter: { getHttpServer: () => http } } as unknown as HttpAdapterHost, {
      shutdownGraceMs: 500,
      bufferBudgetBytes: 8 * MB,
    });
    server.register<string, unknown>({
      path: '/v1/flood',
      authenticate: () => Promise.resolve('principal'),
      reject: () => ({ status: 500, body: {} }),
      accept: (connection) => accepted.push(connection),
      errorFrame: (message) => JSON.stringify({ error: message }),
      // Per-socket bounds far above the budget, so only the budget can let a client go.
      limits: { highWaterBytes: MB, maxQueuedBytes: 64 * MB },
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    accepted.length = 0;
    await server.beforeApplicationShutdown();
    server.onApplicationShutdown();
    await new Promise((resolve) => http.close(resolve));
  });

  it('lets the client holding the most go with 1013 once slow clients together pass the budget', async () => {
    const big = await open(`${base}/v1/flood`);
    const small = await open(`${base}/v1/flood`);
    const bigClosed = closed(big.socket);
    for (const client of [big, small])
      (client.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    await waitFor(() => accepted.length === 2, { timeoutMs: 2000 });
    const chunk = Buffer.alloc(100 * 1024, 'x');
    for (let i = 0; i < 40; i += 1) accepted[1].send({ data: chunk });
    expect(accepted[1].heldBytes).toBeLessThan(8 * MB);
    // Loopback buffers take a few MB before anything is held in the process; 20 MB is well past them.
    for (let i = 0; i < 200; i += 1) accepted[0].send({ data: chunk });

    expect(accepted[0].send({ data: chunk })).toBe(false);
    expect(accepted[1].send({ data: chunk })).toBe(true);
    // Let go once: what it still holds until the cut no longer counts, and it is not let go again.
    expect(accepted[0].heldBytes).toBe(0);
    server.enforceBufferBudget();
    expect(server.report()[0].stats.closedSlow).toBe(1);
    (big.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await expect(bigClosed).resolves.toBe(1013);
    expect(small.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('keeps slow clients within the budget even while frames arrive faster than the timed check', async () => {
    const clients = await Promise.all([1, 2, 3].map(() => open(`${base}/v1/flood`)));
    for (const client of clients)
      (client.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    await waitFor(() => accepted.length === 3, { timeoutMs: 2000 });
    const chunk = Buffer.alloc(100 * 1024, 'x');
    // One burst in a single turn of the event loop: no timer can run in between.
    let mostHeld = 0;
    for (let i = 0; i < 900; i += 1) {
      accepted[i % 3].send({ data: chunk });
      mostHeld = Math.max(
        mostHeld,
        accepted.reduce((sum, connection) => sum + connection.heldBytes, 0),
      );
    }
    // The budget plus the slack between two checks (an eighth of it) plus the frame that crossed it.
    expect(mostHeld).toBeLessThanOrEqual(8 * MB + MB + chunk.length);
    expect(server.report()[0].stats.closedSlow).toBeGreaterThan(0);
  });
});

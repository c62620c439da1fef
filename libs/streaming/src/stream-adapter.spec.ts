import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BadRequestException, type INestApplication, UseFilters } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import fc from 'fast-check';
import WebSocket from 'ws';
import { waitFor } from '../../../test/support/wait-for';
import { FrameInteger, frameValidationPipe } from './frame-validation';
import type { GatewayStream } from './gateway-stream';
import { StreamAdapter } from './stream-adapter';
import type { StreamConnection } from './stream-connection';
import { StreamExceptionFilter } from './stream-exception.filter';
import { StreamingModule } from './streaming.module';

class IdDto {
  @FrameInteger()
  readonly id!: number;
}

const VALIDATION = frameValidationPipe();

/** Records what its handlers saw; `slow` takes a while, so ordering shows. */
@WebSocketGateway({ path: '/probe' })
@UseFilters(StreamExceptionFilter)
class ProbeGateway implements OnGatewayInit<GatewayStream<string>> {
  readonly seen: string[] = [];

  afterInit(stream: GatewayStream<string>): void {
    stream.serve({
      authenticate: (request) =>
        request.headers['x-api-key'] === 'good'
          ? Promise.resolve('principal')
          : Promise.reject(new Error('no key')),
      reject: () => ({ status: 401, body: { detail: 'invalid or inactive API key' } }),
    });
  }

  @SubscribeMessage('slow')
  async slow(@ConnectedSocket() client: StreamConnection<string>, @MessageBody(VALIDATION) body: IdDto) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    this.seen.push(`slow:${body.id}:${client.principal}`);
  }

  @SubscribeMessage('fast')
  fast(@MessageBody(VALIDATION) body: IdDto): void {
    this.seen.push(`fast:${body.id}`);
  }

  @SubscribeMessage('echo')
  echo(@MessageBody() body: Record<string, unknown>): Record<string, unknown> {
    return { echoed: body.text };
  }

  @SubscribeMessage('refuse')
  refuse(): never {
    throw new BadRequestException('not today');
  }

  @SubscribeMessage('crash')
  crash(): never {
    throw new Error('secret detail');
  }
}

function open(url: string): Promise<{ socket: WebSocket; frames: unknown[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { 'x-api-key': 'good' } });
    const frames: unknown[] = [];
    socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString())));
    socket.once('open', () => resolve({ socket, frames }));
    socket.once('error', reject);
  });
}

describe('StreamAdapter', () => {
  let app: INestApplication;
  let gateway: ProbeGateway;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [StreamingModule],
      providers: [ProbeGateway],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    app.useWebSocketAdapter(
      new StreamAdapter(app, {
        pathPrefix: '/v1',
        errorFrame: (error) => JSON.stringify({ op: 'error', error }),
      }),
    );
    await app.listen(0, '127.0.0.1');
    gateway = app.get(ProbeGateway);
    const address = (app.getHttpServer() as Server).address() as AddressInfo;
    url = `ws://127.0.0.1:${address.port}/v1/probe`;
  });

  afterAll(() => app.close());

  beforeEach(() => {
    gateway.seen.length = 0;
  });

  it('serves the gateway under the path prefix, and refuses a bad key before the upgrade with the JSON error', async () => {
    const { socket } = await open(url);
    socket.close();
    const answer = await new Promise<{ status: number; body: string }>((resolve) => {
      const refused = new WebSocket(url);
      refused.once('error', () => undefined);
      refused.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
    });
    expect(answer).toEqual({ status: 401, body: '{"detail":"invalid or inactive API key"}' });
  });

  it("runs a client's frames one after another, with the connection as the client", async () => {
    const { socket } = await open(url);
    socket.send('{"action":"slow","id":1}');
    socket.send('{"action":"fast","id":2}');
    await waitFor(() => gateway.seen.length === 2, { timeoutMs: 3000 });
    expect(gateway.seen).toEqual(['slow:1:principal', 'fast:2']);
    socket.close();
  });

  it('answers frames it cannot serve with error frames and keeps the socket open', async () => {
    const { socket, frames } = await open(url);
    for (const text of [
      '{"action":',
      '[1]',
      '{"id":1}',
      '{"action":"watch"}',
      '{"action":"fast","id":"1"}',
      '{"action":"fast"}',
      '{"action":"refuse"}',
      '{"action":"crash"}',
      '{"action":"echo","text":"hi"}',
    ])
      socket.send(text);
    await waitFor(() => frames.length === 9, { timeoutMs: 3000 });
    expect(frames).toEqual([
      { op: 'error', error: 'malformed JSON: the frame is not valid JSON' },
      { op: 'error', error: 'invalid frame: expected a JSON object' },
      { op: 'error', error: 'missing field: action' },
      { op: 'error', error: 'unknown action: "watch" (expected slow, fast, echo, refuse, crash)' },
      { op: 'error', error: 'invalid id: expected an integer' },
      { op: 'error', error: 'missing field: id' },
      { op: 'error', error: 'not today' },
      { op: 'error', error: 'internal error' },
      { echoed: 'hi' },
    ]);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('answers every generated frame with exactly one frame or a handled action, never dropping the socket', async () => {
    const { socket, frames } = await open(url);
    const texts = fc.sample(
      fc.oneof(
        fc.string(),
        fc.json(),
        fc
          .record({ action: fc.constantFrom('fast', 'echo', 'nope', '__proto__'), id: fc.anything() })
          .map((frame) => JSON.stringify(frame)),
      ),
      { numRuns: 200, seed: 11 },
    );
    for (const text of texts) socket.send(text);
    socket.send('{"action":"echo","text":"end"}');
    await waitFor(() => frames.some((frame) => (frame as { echoed?: string }).echoed === 'end'), {
      timeoutMs: 3000,
    });
    const answered = frames.length - 1 + gateway.seen.length;
    expect(answered).toBe(texts.length);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});

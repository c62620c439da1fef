import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import * as ws from 'ws';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { sharedTextFrame, textFrame, WireSink } from './wire-frame';

/** What `ws` itself writes for a server's text frame. */
function wsFrame(payload: Buffer): Buffer {
  const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } };
  const parts = Sender.frame(payload, {
    fin: true,
    rsv1: false,
    opcode: 1,
    mask: false,
    readOnly: true,
  });
  return Buffer.concat(parts);
}

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 127, 65_535, 65_536, 70_001])('frames %i bytes as ws does', (length) => {
    const payload = Buffer.alloc(length, 'x');
    expect(textFrame(payload).equals(wsFrame(payload))).toBe(true);
  });

  it('builds a payload frame once for every recipient', () => {
    const payload = Buffer.from('{"type":"update"}');
    expect(sharedTextFrame(payload)).toBe(sharedTextFrame(payload));
    expect(sharedTextFrame(Buffer.from('{"type":"update"}'))).not.toBe(sharedTextFrame(payload));
  });
});

describe('WireSink', () => {
  let server: WebSocketServer;
  let client: WebSocket;
  let accepted: WebSocket;

  beforeEach(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await once(server, 'listening');
    const connection = once(server, 'connection');
    client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    [accepted] = (await connection) as [WebSocket];
    await once(client, 'open');
  });

  afterEach(async () => {
    client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  it('delivers frames written around ws own frames, in order and whole', async () => {
    const sink = new WireSink(accepted);
    const received: string[] = [];
    const allReceived = new Promise<void>((resolve) =>
      client.on('message', (data: RawData) => {
        received.push((data as Buffer).toString('utf8'));
        if (received.length === 4) resolve();
      }),
    );
    const big = 'y'.repeat(70_000);
    const written: Array<Error | undefined> = [];
    sink.send(Buffer.from('one'), { binary: false }, (error) => written.push(error));
    accepted.send('two');
    accepted.ping();
    sink.send(Buffer.from(big), { binary: false }, (error) => written.push(error));
    sink.send(Buffer.from('three'), { binary: false }, (error) => written.push(error));
    await allReceived;
    expect(received).toEqual(['one', 'two', big, 'three']);
    expect(written).toEqual([undefined, undefined, undefined]);
  });

  it('hands a socket that is closing to ws, which reports it to the callback', async () => {
    const sink = new WireSink(accepted);
    accepted.close(1000);
    const outcome = await new Promise<Error | undefined>((resolve) =>
      sink.send(Buffer.from('late'), { binary: false }, resolve),
    );
    expect(outcome).toBeInstanceOf(Error);
  });
});

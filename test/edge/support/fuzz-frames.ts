import fc from 'fast-check';
import WebSocket from 'ws';

const FRAME_LIMIT = 64 * 1024;

/** One client frame; `closes` is the close code the server must answer it with. */
export interface FuzzFrame {
  readonly data: Buffer;
  readonly binary: boolean;
  readonly closes?: 1007 | 1009;
}

const text = (data: string): { data: Buffer; binary: boolean } => ({
  data: Buffer.from(data),
  binary: false,
});

/** Values of the wrong type for an id, so no generated message is ever a valid request. */
const notAnId = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.double({ noInteger: true }),
  fc.constantFrom(null, true, [], {}, -0.5, '1', ' 1'),
  fc.jsonValue({ maxDepth: 3 }).filter((value) => !Number.isSafeInteger(value)),
);

function frames(): fc.Arbitrary<FuzzFrame> {
  const oddMessage = fc
    .record({
      action: fc.oneof(
        fc.constantFrom('subscribe', 'unsubscribe', 'subscribe_all', 'SUBSCRIBE', ''),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      match_id: notAnId,
      match: notAnId,
      sport: notAnId,
    })
    .map((message) => text(JSON.stringify(message)));
  const deep = fc
    .tuple(fc.integer({ min: 10, max: 10_000 }), fc.boolean())
    .map(([depth, arrays]) =>
      text(arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
    );
  const within = fc.oneof(
    { weight: 3, arbitrary: oddMessage },
    {
      weight: 2,
      arbitrary: fc.jsonValue({ maxDepth: 5 }).map((value) => text(JSON.stringify(value) ?? 'null')),
    },
    { weight: 1, arbitrary: deep },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 500 }).map(text) },
    {
      weight: 2,
      arbitrary: fc
        .uint8Array({ maxLength: 4000 })
        .map((bytes) => ({ data: Buffer.from(bytes), binary: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 4000, max: FRAME_LIMIT - 1 }),
          fc.integer({ min: 32, max: 126 }),
          fc.boolean(),
        )
        .map(([size, fill, binary]) => ({ data: Buffer.alloc(size, fill), binary })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        text(''),
        { data: Buffer.alloc(0), binary: true },
        text('null'),
        text('"x"'),
      ),
    },
  );
  const tooBig = fc
    .tuple(fc.oneof(fc.constant(FRAME_LIMIT), fc.integer({ min: FRAME_LIMIT, max: 1_000_000 })), fc.boolean())
    .map(([size, binary]): FuzzFrame => ({ data: Buffer.alloc(size, 0x61), binary, closes: 1009 }));
  const badUtf8 = fc.uint8Array({ minLength: 0, maxLength: 200 }).map((bytes): FuzzFrame => ({
    data: Buffer.concat([Buffer.from(bytes), Buffer.from([0xc3, 0x28, 0xff])]),
    binary: false,
    closes: 1007,
  }));
  return fc.oneof(
    { weight: 95, arbitrary: within },
    { weight: 3, arbitrary: tooBig },
    { weight: 2, arbitrary: badUtf8 },
  );
}

export function fuzzFrames(seed: number, count: number): FuzzFrame[] {
  return fc.sample(frames(), { seed, numRuns: count });
}

export interface FrameTally {
  tried: number;
  /** Frames under the limit that got their error frame. */
  answered: number;
  readonly closedByCode: Record<string, number>;
  readonly healthySockets: number;
  usableAtEnd: number;
  readonly failures: string[];
}

export interface StreamProbe {
  /** A valid request the service answers at once. */
  readonly message: string;
  answers(frame: Record<string, unknown>): boolean;
}

interface Client {
  readonly ws: WebSocket;
  readonly frames: Record<string, unknown>[];
  closeCode?: number;
}

function open(url: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { maxPayload: 16 * 1024 * 1024 });
    const client: Client = { ws, frames: [] };
    ws.on('message', (data: Buffer) => {
      try {
        client.frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
      } catch {
        client.frames.push({ unparsable: data.toString().slice(0, 100) });
      }
    });
    ws.on('close', (code) => (client.closeCode = code));
    ws.on('error', () => undefined);
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Read through a call: the close listener changes it while a loop waits. */
function closeCodeOf(client: Client): number | undefined {
  return client.closeCode;
}

function errorFrames(client: Client): number {
  return client.frames.filter(
    (frame) => typeof frame.error === 'string' && (frame.op === 'error' || frame.type === 'error'),
  ).length;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

function label(frame: FuzzFrame): string {
  return `${frame.binary ? 'binary' : 'text'} frame of ${frame.data.length} bytes ${JSON.stringify(frame.data.subarray(0, 60).toString('latin1'))}`;
}

/**
 * Frames under the limit go round-robin over `healthy` sockets, each waiting
 * for its error frame; every frame that must close a socket gets a socket of
 * its own. At the end every healthy socket must still answer `probe`.
 */
export async function runFrames(
  url: string,
  frames: readonly FuzzFrame[],
  probe: StreamProbe,
  healthy = 6,
): Promise<FrameTally> {
  const tally: FrameTally = {
    tried: 0,
    answered: 0,
    closedByCode: {},
    healthySockets: healthy,
    usableAtEnd: 0,
    failures: [],
  };
  const fail = (message: string) => {
    if (tally.failures.length < 20) tally.failures.push(message);
  };
  const kept = frames.filter((frame) => frame.closes === undefined);
  const doomed = frames.filter((frame) => frame.closes !== undefined);
  const clients = await Promise.all(Array.from({ length: healthy }, () => open(url)));

  await Promise.all(
    clients.map(async (client, index) => {
      for (let i = index; i < kept.length; i += healthy) {
        if (client.closeCode !== undefined) return;
        const frame = kept[i];
        const before = errorFrames(client);
        client.ws.send(frame.data, { binary: frame.binary });
        tally.tried += 1;
        if (await until(() => errorFrames(client) > before || client.closeCode !== undefined, 10_000)) {
          const code = closeCodeOf(client);
          if (code === undefined) tally.answered += 1;
          else fail(`socket closed with ${code} after a ${label(frame)}`);
        } else {
          fail(`no error frame for a ${label(frame)}`);
        }
      }
    }),
  );

  let nextDoomed = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (nextDoomed < doomed.length) {
        const frame = doomed[nextDoomed++];
        const client = await open(url);
        client.ws.send(frame.data, { binary: frame.binary });
        tally.tried += 1;
        if (!(await until(() => client.closeCode !== undefined, 15_000))) {
          fail(`still open after a ${label(frame)}`);
          client.ws.terminate();
          continue;
        }
        const code = client.closeCode ?? 0;
        tally.closedByCode[code] = (tally.closedByCode[code] ?? 0) + 1;
        if (code !== frame.closes) fail(`closed with ${code}, not ${frame.closes}, after a ${label(frame)}`);
      }
    }),
  );

  for (const client of clients) {
    if (client.closeCode !== undefined) {
      tally.closedByCode[client.closeCode] = (tally.closedByCode[client.closeCode] ?? 0) + 1;
      continue;
    }
    const seen = client.frames.length;
    client.ws.send(probe.message);
    if (await until(() => client.frames.slice(seen).some((frame) => probe.answers(frame)), 10_000))
      tally.usableAtEnd += 1;
    else fail('a socket that sent only frames under the limit no longer answers a valid request');
    client.ws.close(1000);
  }
  return tally;
}

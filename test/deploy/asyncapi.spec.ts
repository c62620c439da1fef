import { Parser } from '@asyncapi/parser';
import { LiveStreamGateway } from '../../apps/fixtures-live/src/stream/live-stream.gateway';
import {
  errorFrameText as liveErrorFrame,
  liveFrame,
  heartbeatFrame as liveHeartbeatFrame,
} from '../../apps/fixtures-live/src/stream/live-frames';
import { createBookGateway } from '../../apps/odds-passthrough/src/stream/book-stream.gateway';
import {
  errorFrameText as bookErrorFrame,
  heartbeatFrame,
  snapshotFrame,
  updateFrame,
} from '../../apps/odds-passthrough/src/stream/book-frames';
import { DEFAULT_BOOK_PREFIX, FIXTURES_BASE_PATH, readRepoFile } from './support/app-facts';
import { gatewayReads } from './support/gateway-frames';
import { schemaErrors } from './support/json-schema';

type Json = Record<string, unknown>;
interface Message {
  name: string;
  payload: Json;
  examples?: { name: string; payload: unknown }[];
}
interface Document {
  asyncapi: string;
  info: { description: string };
  servers: Record<string, { protocol: string; security: { type: string; name: string; in: string }[] }>;
  channels: Record<string, { address: string; messages: Record<string, Message> }>;
  operations: Record<string, { action: 'send' | 'receive'; messages: Message[] }>;
}

async function load(path: string): Promise<{ problems: string[]; json: Document | undefined }> {
  const { document, diagnostics } = await new Parser().parse(readRepoFile(path));
  const problems = diagnostics
    // Errors (0) and warnings (1) count; information and hints do not.
    .filter((d) => Number(d.severity) <= 1)
    .map((d) => `${String(d.code)}: ${d.message} at ${d.path.join('.')}`);
  const json: unknown = document?.json();
  return { problems, json: json as Document | undefined };
}

/** Message name to payload schema, for the messages the service receives or sends. */
function messagesBy(doc: Document, action: 'send' | 'receive'): Record<string, Message> {
  return Object.fromEntries(
    Object.values(doc.operations)
      .filter((operation) => operation.action === action)
      .flatMap((operation) => operation.messages.map((message) => [message.name, message])),
  );
}

const validates = (message: Message, value: unknown) =>
  expect(schemaErrors(message.payload, value)).toEqual([]);
const frame = (data: Buffer) => JSON.parse(data.toString('utf8')) as unknown;

const SOCCER = {
  v: 1,
  match_id: 1042,
  provider: { stat_id: 's-77' },
  sport: 'soccer',
  competition: 'Premier League',
  home: 'Arsenal',
  away: 'Chelsea',
  status: 'live',
  clock: { minute: 23, second: 5, period: '1H', running: true, added: 0, as_of: '2026-11-21T15:23:05Z' },
  score: { home: 1, away: 0 },
  phase: { team: 'home', code: 'attack', label: 'Attack', vc: '1001' },
  stats: { corners: { home: 3, away: 1 }, possession: { home: 55, away: 45 } },
  events: [{ minute: '12', type: 'goal', team: 'home', label: 'Goal', score: '1-0' }],
  updated_at: '2026-11-21T15:23:05Z',
};
const CRICKET = {
  match_id: 2077,
  sport: 'cricket',
  competition: 'T20 Blast',
  home: 'Surrey',
  away: 'Kent',
  status: 'live',
  match_type: 't20',
  innings: 1,
  batting: 'home',
  score: { runs: 54, wickets: 1, overs: '6.2', raw: '54/1' },
  over: { over: 7, ball: 2, this_over: ['1', 'W'] },
  batsmen: [
    { name: 'A', runs: 30, balls: 20, on_strike: true },
    { name: 'B', runs: 4, balls: 3 },
  ],
  bowler: { name: 'C', overs: '1.2', maidens: 0, runs: 9, wickets: 1 },
  t: '2026-11-21T15:23:05Z',
};
const SELECTION = {
  market_key: 's;0;s;1.5',
  market_name: 'Game - Handicap',
  period: 0,
  bet_name: 'Arsenal -1.5',
  line: -1.5,
  price: 150,
  decimal: 2.5,
  status: 'unlocked' as const,
  version: 7,
  cutoff_at: '2026-11-21T15:00:00Z',
  limit: 2000,
};

describe('AsyncAPI document of the fixtures-live stream', () => {
  let doc: Document;
  beforeAll(async () => {
    const { problems, json } = await load('docs/asyncapi/fixtures-live.yaml');
    expect(problems).toEqual([]);
    doc = json!;
  });

  it('is AsyncAPI 3 for the stream path, with the key as header or query on every server', () => {
    expect(doc.asyncapi).toMatch(/^3\./);
    expect(Object.values(doc.channels).map((c) => c.address)).toEqual([`${FIXTURES_BASE_PATH}/stream`]);
    for (const server of Object.values(doc.servers)) {
      expect(server.security.map((s) => [s.type, s.in, s.name])).toEqual([
        ['httpApiKey', 'header', 'X-API-Key'],
        ['httpApiKey', 'query', 'key'],
      ]);
    }
    expect(doc.info.description).toMatch(/`1001`/);
    expect(doc.info.description).toMatch(/`1013`/);
  });

  it('describes what clients send as the server reads it', async () => {
    const received = messagesBy(doc, 'receive');
    expect(Object.keys(received).sort()).toEqual(['subscribe', 'unsubscribe']);
    for (const message of Object.values(received)) {
      expect(message.examples?.length).toBeGreaterThan(0);
      for (const example of message.examples!) {
        validates(message, example.payload);
        const parsed = await gatewayReads(LiveStreamGateway, JSON.stringify(example.payload));
        expect(parsed).toMatchObject({ ok: true, action: message.name });
      }
    }
    expect(schemaErrors(received.subscribe.payload, { action: 'subscribe', match_id: '7' })).not.toEqual([]);
    expect((await gatewayReads(LiveStreamGateway, '{"action":"subscribe","match_id":"7"}')).ok).toBe(false);
  });

  it('describes every frame the server sends, as the server builds it', () => {
    const sent = messagesBy(doc, 'send');
    expect(Object.keys(sent).sort()).toEqual(['error', 'heartbeat', 'snapshot', 'update']);
    for (const example of Object.values(sent).flatMap((m) =>
      (m.examples ?? []).map((e) => [m, e] as const),
    )) {
      validates(example[0], example[1].payload);
    }
    validates(
      sent.snapshot,
      frame(liveFrame('snapshot', 1042, { seq: 81234, prevSeq: null }, JSON.stringify(SOCCER)).data),
    );
    validates(
      sent.update,
      frame(liveFrame('update', 2077, { seq: 81235, prevSeq: 80990 }, JSON.stringify(CRICKET)).data),
    );
    validates(sent.error, JSON.parse(liveErrorFrame('match not found: 5')));
    validates(sent.heartbeat, frame(liveHeartbeatFrame(1763712000000, 81234, false).data));
    const withoutClock = { ...SOCCER, clock: undefined };
    expect(
      schemaErrors(
        sent.update.payload,
        frame(liveFrame('update', 1042, { seq: 81236, prevSeq: 81234 }, JSON.stringify(withoutClock)).data),
      ),
    ).not.toEqual([]);
  });
});

describe('AsyncAPI document of the odds-passthrough stream', () => {
  let doc: Document;
  beforeAll(async () => {
    const { problems, json } = await load('docs/asyncapi/odds-passthrough.yaml');
    expect(problems).toEqual([]);
    doc = json!;
  });

  it('is AsyncAPI 3 for the default book stream, with the key as header or query on every server', () => {
    expect(doc.asyncapi).toMatch(/^3\./);
    expect(Object.values(doc.channels).map((c) => c.address)).toEqual([`${DEFAULT_BOOK_PREFIX}/data`]);
    for (const server of Object.values(doc.servers)) {
      expect(server.security.map((s) => [s.type, s.in, s.name])).toEqual([
        ['httpApiKey', 'header', 'X-API-Key'],
        ['httpApiKey', 'query', 'key'],
      ]);
    }
    expect(doc.info.description).toMatch(/`1001`/);
    expect(doc.info.description).toMatch(/`1013`/);
  });

  it('describes what clients send as the server reads it', async () => {
    const gateway = createBookGateway({ name: 'book', prefix: DEFAULT_BOOK_PREFIX, grant: 'book' });
    const received = messagesBy(doc, 'receive');
    expect(Object.keys(received).sort()).toEqual(['subscribe', 'subscribe_all', 'unsubscribe']);
    for (const message of Object.values(received)) {
      expect(message.examples?.length).toBeGreaterThan(0);
      for (const example of message.examples!) {
        validates(message, example.payload);
        const parsed = await gatewayReads(gateway, JSON.stringify(example.payload));
        expect(parsed).toMatchObject({ ok: true, action: message.name });
      }
    }
    expect(schemaErrors(received.subscribe.payload, { action: 'subscribe', match: 1.5 })).not.toEqual([]);
    expect((await gatewayReads(gateway, '{"action":"subscribe","match":1.5}')).ok).toBe(false);
  });

  it('describes every frame the server sends, as the server builds it', () => {
    const sent = messagesBy(doc, 'send');
    expect(Object.keys(sent).sort()).toEqual(['error', 'heartbeat', 'snapshot', 'update']);
    for (const example of Object.values(sent).flatMap((m) =>
      (m.examples ?? []).map((e) => [m, e] as const),
    )) {
      validates(example[0], example[1].payload);
    }
    const odds = { match_id: 9, sport_id: 29, ts: 1763712000000, selections: [SELECTION] };
    validates(sent.snapshot, frame(snapshotFrame(odds, { seq: 7, prevSeq: null }).data));
    const update = {
      ...odds,
      selections: [{ ...SELECTION, status: 'locked' as const }],
      removed_market_keys: ['k'],
    };
    const position = { seq: 8, prevSeq: 7 };
    const text = JSON.stringify({ type: 'update', seq: 8, prev_seq: 7, ...update });
    validates(sent.update, frame(updateFrame(update, text, position).data));
    validates(sent.heartbeat, frame(heartbeatFrame(1763712000000, 8, false).data));
    validates(sent.error, JSON.parse(bookErrorFrame('API key not permitted for sport 33')));
    const { decimal: _dropped, ...withoutDecimal } = SELECTION;
    expect(
      schemaErrors(sent.snapshot.payload, { ...odds, type: 'snapshot', selections: [withoutDecimal] }),
    ).not.toEqual([]);
  });
});

import WebSocket from 'ws';
import * as livescores from '../../apps/fixtures-live/src/upstream';
import * as sportsbook from '../../apps/odds-passthrough/src/upstream';
import { waitFor } from '../support/wait-for';
import { type BootedFeedSim, bootFeedSim } from './boot-feed-sim';

type Parsed = { readonly ok: true } | { readonly ok: false; readonly error: string };

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

async function getJson(url: string): Promise<unknown> {
  const response = await get(url);
  expect(response.status).toBe(200);
  return JSON.parse(response.text) as unknown;
}

/** Asserts that the services' own strict parser accepts a body. */
function accepted(result: Parsed): void {
  expect(result.ok ? 'ok' : result.error).toBe('ok');
}

/** Collects the frames of one /live connection. */
function openStream(url: string): Promise<{ socket: WebSocket; frames: string[]; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const frames: string[] = [];
    let closed = false;
    socket.on('message', (data: Buffer) => frames.push(data.toString()));
    socket.on('close', () => (closed = true));
    socket.once('open', () => resolve({ socket, frames, closed: () => closed }));
    socket.once('error', reject);
  });
}

describe('feed-sim: both upstream APIs, read by the services own parsers', () => {
  let sim: BootedFeedSim;
  let coldSoccer: { status: number; text: string };
  let coldTennis: { status: number; text: string };

  beforeAll(async () => {
    sim = await bootFeedSim({
      SIM_SEED: '5',
      SIM_SPEED: '120',
      SIM_TICK_MS: '200',
      SIM_BOOK_COLD_MS: '1500',
      SIM_KIT_DELAY_MS: '10000',
      SIM_DELTA_RETENTION_MS: '4000',
    });
    [coldSoccer, coldTennis] = await Promise.all([
      get(`${sim.url}/book/sports/29/periods`),
      get(`${sim.url}/book/sports/33/periods`),
    ]);
  });

  afterAll(async () => {
    await sim.app.close();
  });

  it('serves the live-score catalog in the contract shape', async () => {
    const sports = await getJson(`${sim.url}/sports`);
    accepted(livescores.parseSports(sports));
    const keys = (sports as Array<{ key: string }>).map((sport) => sport.key);
    expect(keys).toEqual(expect.arrayContaining(['soccer', 'cricket', 'tennis']));
    let matches = 0;
    const statuses = new Set<string>();
    for (const sport of sports as Array<{ id: string }>) {
      const leagues = await getJson(`${sim.url}/sports/${sport.id}/leagues`);
      accepted(livescores.parseLeagues(leagues));
      for (const league of leagues as Array<{ id: string }>) {
        accepted(livescores.parseTeams(await getJson(`${sim.url}/leagues/${league.id}/teams`)));
        const list = await getJson(`${sim.url}/leagues/${league.id}/matches`);
        accepted(livescores.parseMatches(list));
        for (const match of list as Array<{ status: string }>) statuses.add(match.status);
        matches += (list as unknown[]).length;
      }
    }
    expect(matches).toBeGreaterThanOrEqual(20);
    expect([...statuses]).toEqual(expect.arrayContaining(['scheduled', 'in_play', 'finished']));
    expect((await get(`${sim.url}/sports/sp-nope/leagues`)).status).toBe(404);
    expect((await get(`${sim.url}/leagues/lg-nope/matches`)).status).toBe(404);
  });

  it('answers kits slowly, 404 at first and 200 once known', async () => {
    const teams = (await getJson(`${sim.url}/leagues/lg-soc0/teams`)) as Array<{ id: string }>;
    const started = Date.now();
    const first = await Promise.all(teams.map((team) => get(`${sim.url}/teams/${team.id}/kit`)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    const unknown = teams.filter((_, index) => first[index].status === 404);
    expect(unknown.length).toBeGreaterThan(0);
    let known: string | undefined;
    await waitFor(
      async () => {
        const answers = await Promise.all(unknown.map((team) => get(`${sim.url}/teams/${team.id}/kit`)));
        known = unknown.find((_, index) => answers[index].status === 200)?.id;
        return known !== undefined;
      },
      { timeoutMs: 15_000, intervalMs: 250, what: 'a missing kit to become known' },
    );
    const kit = await getJson(`${sim.url}/teams/${known}/kit`);
    accepted(livescores.parseKit(kit));
  });

  it('streams states on connect and changes after, each accepted by the parser, seq growing per stat_id', async () => {
    const stream = await openStream(sim.wsUrl);
    try {
      await waitFor(() => stream.frames.length > 0, { timeoutMs: 5000, what: 'the states sent on connect' });
      const seqs = new Map<string, number[]>();
      const states = new Map<string, Set<string>>();
      await waitFor(
        () => {
          for (const frame of stream.frames.splice(0)) {
            const parsed = livescores.parseLiveEnvelope(JSON.parse(frame));
            accepted(parsed);
            const envelope = JSON.parse(frame) as { stat_id: string; seq: number; state: unknown };
            seqs.set(envelope.stat_id, [...(seqs.get(envelope.stat_id) ?? []), envelope.seq]);
            const seen = states.get(envelope.stat_id) ?? new Set<string>();
            seen.add(JSON.stringify(envelope.state));
            states.set(envelope.stat_id, seen);
          }
          return [...states.values()].some((seen) => seen.size >= 5);
        },
        { timeoutMs: 15_000, what: 'a match whose state moves five times' },
      );
      for (const list of seqs.values()) {
        for (let i = 1; i < list.length; i++) expect(list[i]).toBeGreaterThan(list[i - 1]);
      }
      const [statId] = [...states.entries()].find(([, seen]) => seen.size >= 5) ?? [''];
      const latest = await getJson(`${sim.url}/live/${statId}`);
      accepted(livescores.parseLiveEnvelope(latest));
      expect((latest as { stat_id: string }).stat_id).toBe(statId);
      expect((await get(`${sim.url}/live/st-unknown`)).status).toBe(404);
    } finally {
      stream.socket.close();
    }
  });

  it('keeps the label tables cold for the first seconds, then serves them', async () => {
    expect(coldSoccer.status).toBe(503);
    expect(coldTennis).toMatchObject({ status: 200, text: '[]' });
    const sports = await getJson(`${sim.url}/book/sports`);
    accepted(sportsbook.parseSports(sports));
    await waitFor(
      async () => {
        const answer = await get(`${sim.url}/book/sports/29/periods`);
        return answer.status === 200 && answer.text !== '[]';
      },
      { timeoutMs: 10_000, intervalMs: 200, what: 'the soccer label table' },
    );
    for (const sport of sports as Array<{ id: number }>) {
      const periods = await getJson(`${sim.url}/book/sports/${sport.id}/periods`);
      accepted(sportsbook.parsePeriodLabels(periods));
      expect((periods as unknown[]).length).toBeGreaterThan(0);
      accepted(sportsbook.parseLeagues(await getJson(`${sim.url}/book/sports/${sport.id}/leagues`)));
      accepted(sportsbook.parseMatchups(await getJson(`${sim.url}/book/sports/${sport.id}/matchups`)));
      accepted(sportsbook.parseMarketsFull(await getJson(`${sim.url}/book/sports/${sport.id}/markets`)));
    }
  });

  it('answers 304 to a matching If-None-Match and a new ETag once the book moved', async () => {
    await waitFor(
      async () => {
        const fresh = await get(`${sim.url}/book/sports/33/matchups`);
        const again = await get(`${sim.url}/book/sports/33/matchups`, {
          'If-None-Match': fresh.headers.get('etag') ?? '',
        });
        return again.status === 304 && again.text === '';
      },
      { timeoutMs: 5000, what: 'a 304 for an unchanged matchup list' },
    );
    const first = await get(`${sim.url}/book/sports/29/markets`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    await waitFor(async () => (await get(`${sim.url}/book/sports/29/markets`)).headers.get('etag') !== etag, {
      timeoutMs: 10_000,
      intervalMs: 200,
      what: 'the book to move',
    });
    const moved = await get(`${sim.url}/book/sports/29/markets`, { 'If-None-Match': etag ?? '' });
    expect(moved.status).toBe(200);
  });

  it('follows deltas by cursor and answers 410 for a forgotten or invalid cursor', async () => {
    const full = (await getJson(`${sim.url}/book/sports/29/markets`)) as { last: number };
    await waitFor(
      async () => {
        const delta = await getJson(`${sim.url}/book/sports/29/markets?since=${full.last}`);
        accepted(sportsbook.parseMarketsDelta(delta));
        return (delta as { last: number; markets: unknown[] }).markets.length > 0;
      },
      { timeoutMs: 10_000, intervalMs: 200, what: 'a delta with changes' },
    );
    expect((await get(`${sim.url}/book/sports/29/markets?since=1`)).status).toBe(410);
    expect((await get(`${sim.url}/book/sports/29/markets?since=abc`)).status).toBe(410);
    await waitFor(
      async () => (await get(`${sim.url}/book/sports/29/markets?since=${full.last}`)).status === 410,
      { timeoutMs: 15_000, intervalMs: 500, what: 'the cursor to be forgotten' },
    );
    expect((await get(`${sim.url}/book/sports/999/markets`)).status).toBe(404);
  });
});

describe('feed-sim: fault injection', () => {
  let sim: BootedFeedSim;

  beforeAll(async () => {
    sim = await bootFeedSim({ SIM_SEED: '9', SIM_SPEED: '60', SIM_FAULTS: '1', SIM_TICK_MS: '100' });
  });

  afterAll(async () => {
    await sim.app.close();
  });

  it('at rate 1 answers every request with a 5xx, a slow answer or a malformed body, but never /healthz', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const started = Date.now();
        const answer = await get(`${sim.url}/book/sports/29/markets`);
        return { ...answer, ms: Date.now() - started };
      }),
    );
    for (const answer of answers) {
      const parsed = answer.status === 200 ? sportsbook.parseMarketsFull(safeJson(answer.text)) : null;
      const fault = answer.status >= 500 || !parsed?.ok || answer.ms >= 1400;
      expect(fault).toBe(true);
    }
    expect(answers.some((answer) => answer.status >= 500)).toBe(true);
    expect((await get(`${sim.url}/healthz`)).status).toBe(200);
  }, 20_000);

  it('drops streams', async () => {
    let stream: Awaited<ReturnType<typeof openStream>> | undefined;
    await waitFor(
      async () => {
        stream = await openStream(sim.wsUrl).catch(() => undefined);
        return stream !== undefined;
      },
      { timeoutMs: 10_000, what: 'a stream to open despite faults' },
    );
    await waitFor(() => stream?.closed() ?? false, {
      timeoutMs: 40_000,
      intervalMs: 100,
      what: 'the stream to drop',
    });
  }, 50_000);
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

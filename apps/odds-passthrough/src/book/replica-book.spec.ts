import { serializeUpdateFrame } from './book-messages';
import type { StoredBook } from './book.repository';
import type { MatchUpdate } from './book-messages';
import { ReplicaBook } from './replica-book';
import type { PublicMatch } from './domain/public-match';
import type { Selection } from './domain/selection';
import { aSelection } from '../../../../test/odds-passthrough/selection-factory';

const CUTOFF = '2026-11-21T15:00:00Z';
const CUTOFF_MS = Date.parse(CUTOFF);

function selection(key: string, version: number, overrides: Partial<Selection> = {}): Selection {
  return aSelection({ market_key: key, bet_name: 'Arsenal', version, cutoff_at: CUTOFF, ...overrides });
}

function match(id: number, overrides: Partial<PublicMatch> = {}): PublicMatch {
  return {
    id,
    sport_id: 29,
    league_id: 1980,
    league_name: 'England - Premier League',
    home: 'Arsenal',
    away: 'Chelsea',
    start_time: CUTOFF,
    is_live: false,
    parent_id: null,
    version: 1,
    ...overrides,
  };
}

const frame = (matchId: number, ts: number, selections: Selection[], removed: string[] = []) =>
  serializeUpdateFrame(matchId, 29, ts, selections, removed);

const BEFORE = CUTOFF_MS - 60_000;

describe('ReplicaBook', () => {
  let replica: ReplicaBook;

  beforeEach(() => {
    replica = new ReplicaBook('book');
  });

  it('applies a first frame as an added match and forwards its exact bytes', () => {
    replica.applyCatalog({ matches: [match(1)] });
    const text = frame(1, 100, [selection('m', 5)]);
    const applied = replica.applyFrame(text, { seq: 41, prevSeq: null });
    expect(applied?.frame).toBe(
      text.replace('{"type":"update",', '{"type":"update","seq":41,"prev_seq":null,'),
    );
    expect(applied?.position).toEqual({ seq: 41, prevSeq: null });
    expect(applied?.change).toEqual(
      expect.objectContaining({ matchId: 1, sportId: 29, ts: 100, matchAdded: true, matchRemoved: false }),
    );
    expect(replica.snapshot(1, BEFORE)).toEqual({
      match_id: 1,
      sport_id: 29,
      ts: 100,
      selections: [selection('m', 5)],
    });
    expect(
      replica.applyFrame(frame(1, 200, [selection('m', 6, { price: 160 })]), null)?.change.matchAdded,
    ).toBe(false);
  });

  it('ignores a market whose version is not greater than the one held, and re-serialises a partial frame', () => {
    replica.applyFrame(frame(1, 100, [selection('a', 5), selection('b', 5)]), null);
    expect(replica.applyFrame(frame(1, 100, [selection('a', 5)]), null)).toBeUndefined();
    const applied = replica.applyFrame(
      frame(1, 150, [selection('a', 4, { price: 999 }), selection('b', 6)]),
      null,
    );
    expect(applied?.change.selections.map((s) => [s.market_key, s.version])).toEqual([['b', 6]]);
    expect(JSON.parse(applied?.frame ?? '{}')).toEqual({
      type: 'update',
      seq: 1,
      prev_seq: null,
      match_id: 1,
      sport_id: 29,
      ts: 150,
      selections: [selection('b', 6)],
      removed_market_keys: [],
    });
    expect(replica.snapshot(1, BEFORE)?.selections.find((s) => s.market_key === 'a')?.price).toBe(150);
  });

  it('reports a selection locked once its cutoff has passed, keeping the stored version and price', () => {
    replica.applyFrame(frame(1, 100, [selection('m', 5)]), null);
    expect(replica.snapshot(1, CUTOFF_MS - 1)?.selections[0].status).toBe('unlocked');
    const after = replica.snapshot(1, CUTOFF_MS)?.selections[0];
    expect(after).toEqual(selection('m', 5, { status: 'locked' }));
  });

  it('locks each market by its own cutoff when a match holds several', () => {
    const later = '2026-11-21T16:00:00Z';
    replica.applyFrame(
      frame(1, 100, [
        selection('a', 5),
        selection('b', 5, { cutoff_at: later }),
        selection('c', 5),
        selection('d', 5, { cutoff_at: later }),
      ]),
      null,
    );
    const statuses = replica.snapshot(1, CUTOFF_MS)?.selections.map((s) => `${s.market_key} ${s.status}`);
    expect(statuses).toEqual(['a locked', 'b unlocked', 'c locked', 'd unlocked']);
    expect(replica.snapshot(1, Date.parse(later))?.selections.every((s) => s.status === 'locked')).toBe(true);
  });

  it('removes withdrawn markets, and a whole match withdrawn through the catalog', () => {
    replica.applyCatalog({ matches: [match(1)] });
    replica.applyFrame(frame(1, 100, [selection('a', 5), selection('b', 5)]), null);
    const removed = replica.applyFrame(frame(1, 110, [], ['a']), null);
    expect(removed?.change.removedMarketKeys).toEqual(['a']);
    expect(replica.snapshot(1, BEFORE)?.selections.map((s) => s.market_key)).toEqual(['b']);

    replica.applyCatalog({ removed_matches: [1] });
    expect(replica.matches()).toEqual([]);
    const last = replica.applyFrame(frame(1, 120, [], ['b']), null);
    expect(last?.change).toEqual(expect.objectContaining({ matchRemoved: true, removedMarketKeys: ['b'] }));
    expect(replica.snapshot(1, BEFORE)).toBeUndefined();
    expect(replica.matchIds()).toEqual([]);
    // A late duplicate of the removal does not bring the match back.
    expect(replica.applyFrame(frame(1, 120, [], ['b']), null)).toBeUndefined();
    expect(replica.matchSport(1)).toBeUndefined();
  });

  it('lists sports by id, leagues per sport and matches by start time', () => {
    replica.applyCatalog({
      sports: [
        { id: 33, name: 'Tennis' },
        { id: 29, name: 'Soccer' },
      ],
      leagues: [{ sport_id: 29, leagues: [{ id: 2, name: 'B', sport_id: 29 }] }],
      matches: [match(2, { start_time: '2026-11-22T00:00:00Z' }), match(1)],
    });
    replica.applyCatalog({ leagues: [{ sport_id: 29, leagues: [{ id: 1, name: 'A', sport_id: 29 }] }] });
    expect(replica.sports().map((s) => s.id)).toEqual([29, 33]);
    expect(replica.leagues()).toEqual([{ id: 1, name: 'A', sport_id: 29 }]);
    expect(replica.matches().map((m) => m.id)).toEqual([1, 2]);
    expect(replica.matchIds(29).sort()).toEqual([1, 2]);
    expect(replica.matchIds(33)).toEqual([]);
  });

  it('loads stored state, then tells what it missed when reloaded after a lost link', () => {
    const stored: StoredBook = {
      sports: [{ id: 29, name: 'Soccer' }],
      leagues: [],
      matches: [
        { info: match(1), ts: 100 },
        { info: match(2), ts: 100 },
      ],
      markets: [
        { matchId: 1, marketKey: 'a', version: 5, selections: [selection('a', 5)] },
        { matchId: 1, marketKey: 'b', version: 5, selections: [selection('b', 5)] },
        { matchId: 2, marketKey: 'a', version: 5, selections: [selection('a', 5)] },
      ],
    };
    expect(replica.load(stored, false)).toEqual([]);
    expect(replica.snapshot(1, BEFORE)?.selections).toHaveLength(2);

    const changes = replica.load(
      {
        ...stored,
        matches: [
          { info: match(1), ts: 200 },
          { info: match(3), ts: 200 },
        ],
        markets: [
          { matchId: 1, marketKey: 'a', version: 7, selections: [selection('a', 7)] },
          { matchId: 3, marketKey: 'c', version: 1, selections: [selection('c', 1)] },
        ],
      },
      true,
    );
    const byMatch = new Map(changes.map((c) => [c.change.matchId, c.change]));
    expect(byMatch.get(1)).toEqual(
      expect.objectContaining({ selections: [selection('a', 7)], removedMarketKeys: ['b'], ts: 200 }),
    );
    expect(byMatch.get(2)).toEqual(expect.objectContaining({ matchRemoved: true, removedMarketKeys: ['a'] }));
    expect(byMatch.get(3)).toEqual(
      expect.objectContaining({ matchAdded: true, selections: [selection('c', 1)] }),
    );
    for (const { change, frame: text } of changes) {
      expect(JSON.parse(text)).toEqual(
        expect.objectContaining({
          type: 'update',
          match_id: change.matchId,
          removed_market_keys: change.removedMarketKeys,
        }),
      );
    }
  });

  it('applies a frame handed over as its object as it applies its text', () => {
    const fromText = new ReplicaBook('book');
    const fromObject = new ReplicaBook('book');
    const frames = [
      frame(1, 100, [selection('m', 5), selection('t', 5)]),
      frame(1, 200, [selection('m', 6)], ['t']),
      frame(1, 300, [selection('m', 6)]),
    ];
    frames.forEach((text, i) => {
      const position = { seq: 10 + i, prevSeq: i === 0 ? null : 9 + i };
      const parsed = JSON.parse(text) as MatchUpdate;
      expect(fromObject.applyFrame(text, position, parsed)).toEqual(fromText.applyFrame(text, position));
    });
    expect(fromObject.snapshot(1, BEFORE)).toEqual(fromText.snapshot(1, BEFORE));
  });

  it('judges feed health by the last successful poll and ignores an older report', () => {
    expect(replica.feedHealthy(1000)).toBe(false);
    replica.applyHealth({ last_success_at: 1000, full_loaded: false, poll_ms: 1000 });
    expect(replica.feedHealthy(1000)).toBe(false);
    replica.applyHealth({ last_success_at: 5000, full_loaded: true, poll_ms: 1000 });
    expect(replica.feedHealthy(7999)).toBe(true);
    expect(replica.feedHealthy(8000)).toBe(false);
    replica.applyHealth({ last_success_at: 4000, full_loaded: true, poll_ms: 1000 });
    expect(replica.feedHealthy(7500)).toBe(true);
  });

  it('ignores frames that are not update frames', () => {
    expect(replica.applyFrame('not json', null)).toBeUndefined();
    expect(replica.applyFrame('{"type":"snapshot"}', null)).toBeUndefined();
    expect(
      replica.applyFrame(
        JSON.stringify({
          type: 'update',
          match_id: 1,
          sport_id: 29,
          ts: 1,
          selections: [{}],
          removed_market_keys: [],
        }),
        null,
      ),
    ).toBeUndefined();
  });

  describe('change-log positions', () => {
    it('sends each change with its position and ignores one at or below what it holds', () => {
      replica.applyCatalog({ matches: [match(1)] });
      replica.applyFrame(frame(1, 100, [selection('a', 5)]), { seq: 10, prevSeq: null });
      const next = replica.applyFrame(frame(1, 110, [selection('a', 6)]), { seq: 12, prevSeq: 10 });
      expect(JSON.parse(next?.frame ?? '{}')).toMatchObject({ type: 'update', seq: 12, prev_seq: 10 });
      expect(
        replica.applyFrame(frame(1, 120, [selection('a', 7)]), { seq: 12, prevSeq: 10 }),
      ).toBeUndefined();
      expect(replica.position(1)).toEqual({ seq: 12, prevSeq: 10 });
      expect(replica.newestSeq).toBe(12);
    });

    it('loads stored positions, keeping a newer one heard live, and reports unlogged states as the log start', () => {
      replica.applyCatalog({ matches: [match(1), match(2)] });
      replica.applyFrame(frame(1, 100, [selection('a', 5)]), { seq: 30, prevSeq: 20 });
      replica.load(
        {
          sports: [],
          leagues: [],
          matches: [
            { info: match(1), ts: 100, position: { seq: 20, prevSeq: null } },
            { info: match(2), ts: 100, position: null },
            { info: match(3), ts: 100, position: { seq: 25, prevSeq: 5 } },
          ],
          markets: [],
        },
        false,
      );
      expect([replica.position(1), replica.position(2), replica.position(3)]).toEqual([
        { seq: 30, prevSeq: 20 },
        { seq: 1, prevSeq: null },
        { seq: 25, prevSeq: 5 },
      ]);
      expect(replica.newestSeq).toBe(30);
    });
  });

  it('answers the same bytes whether it heard the markets one by one or loaded them', () => {
    const heard = replica;
    heard.applyCatalog({ matches: [match(1)] });
    heard.applyFrame(frame(1, 100, [selection('s;0;m', 5), selection('s;0;s;-1.5', 5)]), null);
    heard.applyFrame(frame(1, 200, [selection('s;0;ou;0.5', 6, { line: 0.5 })]), null);
    heard.applyFrame(frame(1, 300, [selection('s;0;m', 7), selection('s;0;ou;2.5', 7)]), null);
    heard.applyFrame(frame(1, 400, [], ['s;0;s;-1.5']), null);

    const loaded = new ReplicaBook('book');
    loaded.load(
      {
        sports: [],
        leagues: [],
        matches: [{ info: match(1), ts: 400 }],
        markets: [
          { matchId: 1, marketKey: 's;0;ou;2.5', version: 7, selections: [selection('s;0;ou;2.5', 7)] },
          { matchId: 1, marketKey: 's;0;m', version: 7, selections: [selection('s;0;m', 7)] },
          {
            matchId: 1,
            marketKey: 's;0;ou;0.5',
            version: 6,
            selections: [selection('s;0;ou;0.5', 6, { line: 0.5 })],
          },
        ],
      },
      false,
    );
    const answer = JSON.stringify(heard.snapshot(1, BEFORE));
    expect(JSON.stringify(loaded.snapshot(1, BEFORE))).toBe(answer);
    expect(heard.snapshot(1, BEFORE)?.selections.map((s) => s.market_key)).toEqual([
      's;0;m',
      's;0;ou;0.5',
      's;0;ou;2.5',
    ]);
  });

  describe('loading in parts', () => {
    /** 30 matches of 1,000 markets: several parts' worth. */
    const wide = (version: number): StoredBook => ({
      sports: [{ id: 29, name: 'Soccer' }],
      leagues: [],
      matches: Array.from({ length: 30 }, (_, m) => ({ info: match(m + 1), ts: 100 * version })),
      markets: Array.from({ length: 30 }, (_, m) =>
        Array.from({ length: 1_000 }, (_, k) => ({
          matchId: m + 1,
          marketKey: `s;0;ou;${k}`,
          version,
          selections: [selection(`s;0;ou;${k}`, version)],
        })),
      ).flat(),
    });

    it('keeps answering from the held state between parts and ends as a load in one go does', () => {
      replica.load(wide(1), false);
      const held = JSON.stringify(replica.snapshot(7, BEFORE));
      const loading = replica.loading(wide(2), true);
      let parts = 0;
      let step = loading.next();
      while (!step.done) {
        parts++;
        expect(JSON.stringify(replica.snapshot(7, BEFORE))).toBe(held);
        step = loading.next();
      }
      expect(parts).toBeGreaterThanOrEqual(6);

      const inOneGo = new ReplicaBook('book');
      inOneGo.load(wide(1), false);
      const changes = inOneGo.load(wide(2), true);
      expect(step.value.map((c) => c.frame)).toEqual(changes.map((c) => c.frame));
      expect(JSON.stringify(replica.snapshot(7, BEFORE))).toBe(JSON.stringify(inOneGo.snapshot(7, BEFORE)));
      expect(replica.snapshot(7, BEFORE)?.selections[0].version).toBe(2);
    });
  });
});

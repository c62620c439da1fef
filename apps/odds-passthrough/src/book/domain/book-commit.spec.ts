import type { UpstreamMarket, UpstreamMatchup } from '../../upstream';
import { aMatchup, aTotal } from '../../../../../test/odds-passthrough/sportsbook-factory';
import { countParts } from '../../../../../test/support/parts';
import type { BookDiff } from './book-diff';
import { IngestBook } from './ingest-book';

const SOCCER = 29;
const LEAGUES = [{ id: 1980, name: 'England - Premier League' }];
const LABELS = [{ number: 0, description: 'Match' }];
const T0 = Date.parse('2026-11-21T12:00:00Z');
const MATCHES = 12;
const MARKETS_PER_MATCH = 5;

function load(priceShift = 0): { matchups: UpstreamMatchup[]; markets: UpstreamMarket[] } {
  const matchups: UpstreamMatchup[] = [];
  const markets: UpstreamMarket[] = [];
  for (let m = 0; m < MATCHES; m++) {
    const id = 1_700_000_000 + m;
    matchups.push(aMatchup({ id }));
    for (let j = 0; j < MARKETS_PER_MATCH; j++) {
      const line = j + 0.5;
      markets.push(
        aTotal(line, {
          matchup_id: id,
          version: 1 + priceShift,
          prices: [
            { designation: 'over', points: line, price: -110 - priceShift },
            { designation: 'under', points: line, price: -110 },
          ],
        }),
      );
    }
  }
  return { matchups, markets };
}

function newBook(): IngestBook {
  const book = new IngestBook('book');
  book.applySports([{ id: SOCCER, name: 'Soccer' }], T0);
  book.applyLabels(SOCCER, LABELS, T0);
  return book;
}

function takeAll(book: IngestBook, priceShift: number, now: number, budget: number): BookDiff[] {
  const commit = book.beginFull(SOCCER, { leagues: LEAGUES, ...load(priceShift) }, now);
  const parts: BookDiff[] = [];
  while (!commit.done) parts.push(commit.next(budget));
  return parts;
}

/** What clients would be told, match by match, whatever the parts. */
function merged(parts: readonly BookDiff[]) {
  return {
    changes: parts.flatMap((part) => part.changes).sort((a, b) => a.matchId - b.matchId),
    matches: parts.flatMap((part) => part.matches).sort((a, b) => a.id - b.id),
    removedMatches: parts.flatMap((part) => part.removedMatches),
    sportsChanged: parts.some((part) => part.sportsChanged),
    leaguesChanged: parts.flatMap((part) => part.leaguesChanged),
  };
}

describe('a full load resolved in parts', () => {
  it('tells clients exactly what the load resolved at once tells them, first load and a change', () => {
    const whole = newBook();
    const inParts = newBook();
    const first = whole.applyFull(SOCCER, { leagues: LEAGUES, ...load(0) }, T0);
    expect(merged(takeAll(inParts, 0, T0, 7))).toEqual(merged([first]));
    const second = whole.applyFull(SOCCER, { leagues: LEAGUES, ...load(3) }, T0 + 1000);
    expect(merged(takeAll(inParts, 3, T0 + 1000, 7))).toEqual(merged([second]));
    expect(second.changes).toHaveLength(MATCHES);
  });

  it('takes whole matches until the budget is reached, the catalog changes with the first part', () => {
    const parts = takeAll(newBook(), 0, T0, 2 * MARKETS_PER_MATCH);
    const sizes = parts.map((part) => part.changes.length);
    // two matches of five markets each fill a budget of ten; the last call finds nothing left
    expect(sizes).toEqual([2, 2, 2, 2, 2, 2, 0]);
    for (const part of parts) {
      for (const change of part.changes) {
        expect(change.selections).toHaveLength(2 * MARKETS_PER_MATCH);
      }
    }
    expect(parts[0].leaguesChanged).toEqual([SOCCER]);
    expect(parts.slice(1).flatMap((part) => part.leaguesChanged)).toEqual([]);
  });

  it('resolves everything in one part without a budget', () => {
    const commit = newBook().beginFull(SOCCER, { leagues: LEAGUES, ...load(0) }, T0);
    expect(commit.next().changes).toHaveLength(MATCHES);
    expect(commit.done).toBe(true);
  });
});

describe('a full load indexed in parts', () => {
  /** Three matches of 4,000 markets: more than two parts of indexing. */
  function wideLoad(): { matchups: UpstreamMatchup[]; markets: UpstreamMarket[] } {
    const ids = [1_800_000_000, 1_800_000_001, 1_800_000_002];
    return {
      matchups: ids.map((id) => aMatchup({ id })),
      markets: ids.flatMap((id) =>
        Array.from({ length: 4_000 }, (_, j) => aTotal(j + 0.5, { matchup_id: id, version: 1 })),
      ),
    };
  }

  it('yields between parts and commits what beginFull commits', () => {
    const parted = countParts(newBook().fullInParts(SOCCER, { leagues: LEAGUES, ...wideLoad() }, T0));
    expect(parted.yields).toBeGreaterThanOrEqual(2);
    const whole = newBook().beginFull(SOCCER, { leagues: LEAGUES, ...wideLoad() }, T0);
    expect(merged([parted.value.next()])).toEqual(merged([whole.next()]));
  });
});

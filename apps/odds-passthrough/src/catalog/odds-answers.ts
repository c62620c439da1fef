import { PreparedJson } from '@app/http-edge';
import { type MatchOdds, sameOddsState } from '../book/domain/match-odds';
import { HeldEncodings } from '../common/held-encodings';

/** How long an answer may serve later requests for its match: partners polling one match, not a copy of the book. */
const SHARED_FOR_MS = 1000;
/** Answers held at most (about 20 KB each for a match of 40 markets). */
const MOST_HELD = 256;

interface OddsAnswer {
  readonly odds: MatchOdds;
  readonly json: PreparedJson;
}

/**
 * The `GET /odds` answers of one book, serialised and tagged once per state of
 * a match: partners polling a match between two changes get the same bytes and
 * `ETag` without the match being encoded and hashed again for each of them.
 * Each answer built is handed to `track` with a check that reads the match
 * again (`read`) and tells whether the answer still holds.
 */
export class OddsAnswers {
  private readonly answers = new HeldEncodings<OddsAnswer>(SHARED_FOR_MS, MOST_HELD);

  constructor(
    private readonly read: (matchId: number) => MatchOdds | undefined,
    private readonly track: (json: PreparedJson, stillCurrent: () => boolean) => void,
  ) {}

  answer(odds: MatchOdds): PreparedJson {
    return this.answers.get(
      odds.match_id,
      (held) => sameOddsState(held.odds, odds),
      () => this.build(odds),
    ).json;
  }

  clear(): void {
    this.answers.clear();
  }

  private build(odds: MatchOdds): OddsAnswer {
    const json = new PreparedJson(JSON.stringify(odds));
    this.track(json, () => {
      const now = this.read(odds.match_id);
      return now !== undefined && sameOddsState(odds, now);
    });
    return { odds, json };
  }
}

import { aSelection } from '../../../../test/odds-passthrough/selection-factory';
import type { MatchOdds } from '../book/domain/match-odds';
import { OddsAnswers } from './odds-answers';

const m1 = aSelection({ market_key: 'm1', version: 1 });
const m2 = aSelection({ market_key: 'm2', version: 1 });

function odds(selections: MatchOdds['selections'], ts = 1, sport = 29): MatchOdds {
  return { match_id: 100, sport_id: sport, ts, selections };
}

describe('OddsAnswers', () => {
  let answers: OddsAnswers;

  beforeEach(
    () =>
      (answers = new OddsAnswers(
        () => undefined,
        () => undefined,
      )),
  );
  afterEach(() => answers.clear());

  it('answers a state read afresh with the same bytes and tag, those of its JSON', () => {
    const first = answers.answer(odds([m1, m2]));
    expect(answers.answer(odds([m1, m2]))).toBe(first);
    expect(first.bytes.toString('utf8')).toBe(JSON.stringify(odds([m1, m2])));
  });

  it('serialises any other state anew: ts, sport, a replaced or locked selection, order, a market fewer', () => {
    const first = answers.answer(odds([m1, m2]));
    const others = [
      odds([m1, m2], 2),
      odds([m1, m2], 1, 33),
      odds([m1, { ...m2 }]),
      odds([m1, { ...m2, status: 'locked' }]),
      odds([m2, m1]),
      odds([m1]),
    ];
    for (const state of others) {
      const answer = answers.answer(state);
      expect(answer).not.toBe(first);
      expect(answer.bytes.toString('utf8')).toBe(JSON.stringify(state));
      expect(answers.answer(odds([m1, m2]))).not.toBe(answer);
    }
  });

  it('tracks each answer it builds with a check that reads the match again', () => {
    let current: MatchOdds | undefined = odds([m1, m2]);
    const checks = new Map<unknown, () => boolean>();
    const tracked = new OddsAnswers(
      () => current && { ...current, selections: [...current.selections] },
      (json, stillCurrent) => checks.set(json, stillCurrent),
    );
    const json = tracked.answer(odds([m1, m2]));
    const stillCurrent = checks.get(json) as () => boolean;
    expect(stillCurrent()).toBe(true);
    current = odds([m1, { ...m2, status: 'locked' }]);
    expect(stillCurrent()).toBe(false);
    current = odds([m1, m2], 2);
    expect(stillCurrent()).toBe(false);
    current = undefined;
    expect(stillCurrent()).toBe(false);
    expect(tracked.answer(odds([m1, m2]))).toBe(json);
    expect(checks.size).toBe(1);
    tracked.clear();
  });
});

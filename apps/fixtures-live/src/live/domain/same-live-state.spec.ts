import fc from 'fast-check';
import { parseLiveEnvelope } from '../../upstream/livescores.parsers';
import {
  cricketState,
  rawEnvelope,
  rawSoccerState,
  soccerState,
} from '../../../../../test/fixtures-live/livescores-bodies';
import type { UpstreamLiveState } from '../../upstream/livescores.types';
import { sameLiveState } from './same-live-state';

function parsedState(body: unknown): UpstreamLiveState {
  const result = parseLiveEnvelope(body);
  if (!result.ok) throw new Error(result.error);
  return result.value.state;
}

describe('sameLiveState', () => {
  it('holds for a state re-sent with a new seq and sent_at', () => {
    const first = parsedState({ ...rawEnvelope(), seq: 10, sent_at: '2026-11-21T15:23:11Z' });
    const again = parsedState({ ...rawEnvelope(), seq: 11, sent_at: '2026-11-21T15:23:15Z' });
    expect(sameLiveState(first, again)).toBe(true);
  });

  it('ignores the order of keys and fields the parser drops', () => {
    const raw = rawSoccerState();
    const reordered = Object.fromEntries(Object.entries(raw).reverse());
    expect(
      sameLiveState(parsedState(rawEnvelope(raw)), parsedState(rawEnvelope({ ...reordered, extra: 1 }))),
    ).toBe(true);
  });

  it.each<[string, Partial<ReturnType<typeof soccerState>>]>([
    ['the score', { score: { home: 2, away: 0 } }],
    [
      'the clock second',
      {
        clock: { minute: 23, second: 11, period: '1H', running: true, added: 0, at: '2026-11-21T15:23:11Z' },
      },
    ],
    ['the phase', { phase: { vc: 1002, team: 'home' } }],
    ['the ball position', { ball: { x: 0.72, y: 0.38, vc: 1003 } }],
    ['a stat', { stats: { corners: [5, 1] } }],
    ['the incidents', { incidents: [] }],
    ['the extras', { extras: { xg: [1.3, 0.34] } }],
    ['the status', { status: 'ht' }],
  ])('fails when %s changed', (_case, change) => {
    expect(sameLiveState(soccerState(), soccerState(change))).toBe(false);
  });

  it('tells an absent optional field from a present one', () => {
    expect(sameLiveState(soccerState(), soccerState({ ball: undefined }))).toBe(false);
    expect(sameLiveState(soccerState({ ball: undefined }), soccerState({ ball: undefined }))).toBe(true);
  });

  it('compares cricket states by content too', () => {
    expect(sameLiveState(cricketState(), cricketState())).toBe(true);
    expect(sameLiveState(cricketState(), cricketState({ score: '246/6 (61.3)' }))).toBe(false);
    expect(
      sameLiveState(cricketState(), cricketState({ over: { number: 62, ball: 2, this_over: ['1', '0'] } })),
    ).toBe(false);
    expect(
      sameLiveState(cricketState({ scorecard: [{ a: [1] }] }), cricketState({ scorecard: [{ a: [2] }] })),
    ).toBe(false);
  });

  it('never calls states of different sports the same', () => {
    expect(sameLiveState(soccerState(), cricketState())).toBe(false);
  });

  it('holds exactly when the two read the same as JSON, for generated values', () => {
    // As in a JSON-born state: undefined only as an object member, where it reads as absent.
    const canonical = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(canonical)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([, member]) => member !== undefined)
                .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
                .map(([key, member]) => [key, canonical(member)]),
            )
          : value;
    const value = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(0, 1, 'a', 'b', true, null),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('x', 'y', 'z'), fc.option(tie('node'), { nil: undefined }), {
          maxKeys: 3,
        }),
      ),
    })).node;
    const pair = fc.oneof(
      fc.tuple(value, value),
      value.map((one) => [one, structuredClone(one)] as const),
    );
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const same = JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
        expect(sameLiveState(a as UpstreamLiveState, b as UpstreamLiveState)).toBe(same);
      }),
      { numRuns: 2_000 },
    );
  });
});

import { cricketState, soccerState } from '../../../../../test/fixtures-live/livescores-bodies';
import type { CricketFormat } from '../../upstream/livescores.types';
import { catalogStatusFromLiveState, catalogStatusFromProvider, isFrozenAtStumps } from './catalog-status';
import { CATALOG_STATUSES } from './snapshot.types';

describe('catalogStatusFromProvider', () => {
  it.each([
    ['scheduled', 'NOT_STARTED'],
    ['in_play', 'STARTED'],
    ['close_of_play', 'CLOSE_OF_PLAY'],
    ['finished', 'FINISHED'],
    ['suspended', 'hidden'],
    ['postponed', 'hidden'],
    ['cancelled', 'hidden'],
  ] as const)('maps %s to %s', (status, expected) => {
    expect(catalogStatusFromProvider(status)).toBe(expected);
  });

  it('lists the four public statuses', () => {
    expect(CATALOG_STATUSES).toEqual(['NOT_STARTED', 'STARTED', 'CLOSE_OF_PLAY', 'FINISHED']);
  });
});

describe('catalogStatusFromLiveState: soccer', () => {
  it.each([
    ['not_started', 'NOT_STARTED'],
    ['1h', 'STARTED'],
    ['ht', 'STARTED'],
    ['2h', 'STARTED'],
    ['et', 'STARTED'],
    ['pen', 'STARTED'],
    ['ft', 'FINISHED'],
  ] as const)('maps %s to %s', (status, expected) => {
    expect(catalogStatusFromLiveState(soccerState({ status }), null)).toBe(expected);
  });
});

describe('catalogStatusFromLiveState: cricket', () => {
  it.each([
    ['not_started', 'NOT_STARTED'],
    ['live', 'STARTED'],
    ['innings_break', 'STARTED'],
    ['rain', 'STARTED'],
    ['bad_light', 'STARTED'],
    ['lunch', 'STARTED'],
    ['tea', 'STARTED'],
    ['drinks', 'STARTED'],
    ['stumps', 'CLOSE_OF_PLAY'],
    ['ended', 'FINISHED'],
  ] as const)('maps %s on a Test to %s', (status, expected) => {
    expect(catalogStatusFromLiveState(cricketState({ status, format: 'test' }), 'test')).toBe(expected);
  });

  it.each<[CricketFormat | null, CricketFormat | null, string]>([
    ['test', null, 'CLOSE_OF_PLAY'],
    [null, 'test', 'CLOSE_OF_PLAY'],
    ['one_day', 'test', 'STARTED'],
    [null, null, 'STARTED'],
    ['t20', null, 'STARTED'],
  ])('at stumps with catalog format %s and state format %s gives %s', (catalogFormat, format, expected) => {
    expect(catalogStatusFromLiveState(cricketState({ status: 'stumps', format }), catalogFormat)).toBe(
      expected,
    );
  });
});

describe('isFrozenAtStumps', () => {
  it('holds for a Test at stumps only', () => {
    expect(isFrozenAtStumps(cricketState({ status: 'stumps', format: 'test' }), null)).toBe(true);
    expect(isFrozenAtStumps(cricketState({ status: 'stumps', format: null }), 'test')).toBe(true);
    expect(isFrozenAtStumps(cricketState({ status: 'live', format: 'test' }), 'test')).toBe(false);
    expect(isFrozenAtStumps(cricketState({ status: 'tea', format: 'test' }), 'test')).toBe(false);
    expect(isFrozenAtStumps(cricketState({ status: 'ended', format: 'test' }), 'test')).toBe(false);
    expect(isFrozenAtStumps(cricketState({ status: 'stumps', format: 'test' }), 'one_day')).toBe(false);
    expect(isFrozenAtStumps(soccerState({ status: 'ht' }), 'test')).toBe(false);
  });
});

import { decodeCricketEvent, decodePhase, incidentLabel, incidentType } from './code-tables';

describe('phase table', () => {
  it.each([
    [1000, 'kickoff', 'Kick Off'],
    [1001, 'safe', 'Ball Safe'],
    [1002, 'attack', 'Attack'],
    [1003, 'dangerous_attack', 'Dangerous Attack'],
    [1004, 'shot', 'Shot'],
    [1005, 'goal_kick', 'Goal Kick'],
    [1006, 'corner', 'Corner'],
    [1007, 'free_kick', 'Free Kick'],
    [1008, 'dangerous_free_kick', 'Dangerous Free Kick'],
    [1009, 'throw_in', 'Throw In'],
    [1010, 'penalty', 'Penalty'],
    [1011, 'goal', 'Goal'],
    [1012, 'substitution', 'Substitution'],
    [1013, 'injury', 'Injury'],
    [1014, 'offside', 'Offside'],
    [1015, 'var', 'VAR Check'],
    [1016, 'break', 'Break'],
  ])('decodes %i as %s', (vc, code, label) => {
    expect(decodePhase(vc)).toEqual({ code, label });
  });

  it.each([999, 1017, 2001, 3001, 0, -1])('decodes the unknown code %i as other', (vc) => {
    expect(decodePhase(vc)).toEqual({ code: 'other', label: 'Other' });
  });
});

describe('cricket event table', () => {
  it.each([
    [3001, 'runs', 'Runs'],
    [3002, 'four', 'Four'],
    [3003, 'six', 'Six'],
    [3004, 'bye', 'Bye'],
    [3005, 'leg_bye', 'Leg Bye'],
    [3006, 'wide', 'Wide'],
    [3007, 'no_ball', 'No Ball'],
    [3008, 'wicket', 'Wicket'],
    [3009, 'bowled', 'Bowled'],
    [3010, 'lbw', 'LBW'],
    [3011, 'caught', 'Caught'],
    [3012, 'stumped', 'Stumped'],
    [3013, 'run_out', 'Run Out'],
    [3014, 'bowling', 'Bowling'],
    [3015, 'maiden_over', 'Maiden Over'],
    [3016, 'end_of_over', 'End of Over'],
    [3017, 'duck', 'Duck'],
    [3018, 'century', 'Century'],
    [3019, 'review', 'Review'],
    [3020, 'innings_break', 'Innings Break'],
    [3021, 'match_ended', 'Match Ended'],
  ])('decodes %i as %s', (vc, code, label) => {
    expect(decodeCricketEvent(vc)).toEqual({ code, label });
  });

  it.each([3000, 3022, 1003, 2001])('decodes the unknown code %i as other', (vc) => {
    expect(decodeCricketEvent(vc)).toEqual({ code: 'other', label: 'Other' });
  });
});

describe('incident table', () => {
  it.each([
    [2001, 'goal'],
    [2002, 'corner'],
    [2003, 'yellow_card'],
    [2004, 'red_card'],
    [2005, 'penalty'],
    [2006, 'substitution'],
    [2007, 'shootout'],
  ])('maps %i to %s', (vc, type) => {
    expect(incidentType(vc)).toBe(type);
  });

  it.each([2000, 2008, 1011, 3008])('maps the unknown code %i to a generic event', (vc) => {
    expect(incidentType(vc)).toBe('event');
  });

  it.each([
    ['goal', 'Goal'],
    ['corner', 'Corner'],
    ['yellow_card', 'Yellow Card'],
    ['red_card', 'Red Card'],
    ['penalty', 'Penalty'],
    ['substitution', 'Substitution'],
    ['shootout', 'Shootout'],
    ['event', 'Event'],
  ] as const)('words %s as "%s", with the player when given', (type, words) => {
    expect(incidentLabel(type, undefined)).toBe(words);
    expect(incidentLabel(type, 'Saka')).toBe(`${words} - Saka`);
  });

  it('ignores a blank player name', () => {
    expect(incidentLabel('goal', '   ')).toBe('Goal');
    expect(incidentLabel('goal', ' Saka ')).toBe('Goal - Saka');
  });
});

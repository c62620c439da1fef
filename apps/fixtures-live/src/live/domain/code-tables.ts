import type { SoccerEventType } from './snapshot.types';

export interface DecodedCode {
  readonly code: string;
  readonly label: string;
}

/** What a code missing from its table decodes to (the raw vc is kept beside it). */
export const UNKNOWN_CODE: DecodedCode = { code: 'other', label: 'Other' };

function table(entries: ReadonlyArray<readonly [number, string, string]>): ReadonlyMap<number, DecodedCode> {
  return new Map(entries.map(([vc, code, label]) => [vc, { code, label }]));
}

const PHASES = table([
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
]);

const CRICKET_EVENTS = table([
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
]);

const INCIDENTS: ReadonlyMap<number, SoccerEventType> = new Map<number, SoccerEventType>([
  [2001, 'goal'],
  [2002, 'corner'],
  [2003, 'yellow_card'],
  [2004, 'red_card'],
  [2005, 'penalty'],
  [2006, 'substitution'],
  [2007, 'shootout'],
]);

const EVENT_TYPE_WORDS: Readonly<Record<SoccerEventType, string>> = {
  goal: 'Goal',
  corner: 'Corner',
  yellow_card: 'Yellow Card',
  red_card: 'Red Card',
  penalty: 'Penalty',
  substitution: 'Substitution',
  shootout: 'Shootout',
  event: 'Event',
};

/** Soccer phase table, used for `phase.vc` and `ball.vc`. */
export function decodePhase(vc: number): DecodedCode {
  return PHASES.get(vc) ?? UNKNOWN_CODE;
}

/** Cricket event table, used for `last_event.vc`. */
export function decodeCricketEvent(vc: number): DecodedCode {
  return CRICKET_EVENTS.get(vc) ?? UNKNOWN_CODE;
}

/** Soccer incident table; anything not in it is a generic `event`. */
export function incidentType(vc: number): SoccerEventType {
  return INCIDENTS.get(vc) ?? 'event';
}

/** The event type in words, with the player when given ("Goal - Saka"). */
export function incidentLabel(type: SoccerEventType, player: string | undefined): string {
  const words = EVENT_TYPE_WORDS[type];
  const name = player?.trim();
  return name ? `${words} - ${name}` : words;
}

import type { CricketFormat, Fixture, FixtureStatus } from './catalog';
import { Random } from './random';
import { DAY, HOUR, MINUTE, SECOND, type SimTime } from './sim-time';

export type CricketStatus =
  | 'not_started'
  | 'live'
  | 'innings_break'
  | 'rain'
  | 'bad_light'
  | 'lunch'
  | 'tea'
  | 'drinks'
  | 'stumps'
  | 'ended';
type Side = 'home' | 'away';

export const CRICKET_EVENT = {
  runs: 3001,
  four: 3002,
  six: 3003,
  bye: 3004,
  leg_bye: 3005,
  wide: 3006,
  no_ball: 3007,
  wicket: 3008,
  bowled: 3009,
  lbw: 3010,
  caught: 3011,
  stumped: 3012,
  run_out: 3013,
  bowling: 3014,
  maiden_over: 3015,
  end_of_over: 3016,
  duck: 3017,
  century: 3018,
  review: 3019,
  innings_break: 3020,
  match_ended: 3021,
} as const;

interface Batter {
  name: string;
  runs: number;
  balls: number;
  fours: number;
  sixes: number;
  dismissal: string | null;
}

interface Bowler {
  name: string;
  balls: number;
  maidens: number;
  runs: number;
  wickets: number;
}

interface Innings {
  side: Side;
  /** 1 or 2: the batting side's first or second innings. */
  phase: number;
  runs: number;
  wickets: number;
  legalBalls: number;
  batters: Batter[];
  striker: number;
  nonStriker: number;
  bowlers: Bowler[];
  bowler: number;
  thisOver: string[];
  overRuns: number;
  overs: Array<{ over: number; runs: number; score: string }>;
  fallOfWickets: Array<{ wicket: number; score: number; batsman: string }>;
  extras: { b: number; lb: number; w: number; nb: number };
  closed: boolean;
}

export interface CricketState {
  sport: 'cricket';
  competition: string;
  status: CricketStatus;
  format: CricketFormat;
  innings: number;
  batting: Side;
  score: string;
  set_score: string;
  over: { number: number; ball: number; this_over: string[] };
  batsmen: Array<{ name: string; runs: number; balls: number; on_strike?: true }>;
  bowler: { name: string; overs: string; maidens: number; runs: number; wickets: number };
  last_event?: { vc: number; team: Side | '' };
  scorecard?: unknown[];
  at: string;
}

const RULES: Record<
  CricketFormat,
  { overs: number | null; innings: number; ballMs: number; wicketOdds: number }
> = {
  t20: { overs: 20, innings: 2, ballMs: 38 * SECOND, wicketOdds: 1 / 22 },
  one_day: { overs: 50, innings: 2, ballMs: 42 * SECOND, wicketOdds: 1 / 38 },
  test: { overs: null, innings: 4, ballMs: 40 * SECOND, wicketOdds: 1 / 60 },
};

export const CRICKET_PREMATCH_MS = 30 * MINUTE;
/** Length of a Test's playing day: three sessions of two hours with lunch and tea between. */
const SESSION_MS = 2 * HOUR;

/**
 * One cricket match, stepped a delivery at a time: limited-overs matches with
 * an innings break and now and then a rain stoppage, and Tests of up to five
 * days with lunch, tea and stumps, played until four innings are done or the
 * last day ends.
 */
export class CricketMatch {
  private readonly random: Random;
  private readonly rules: (typeof RULES)[CricketFormat];
  private now: number;
  private nextAt: number;
  private matchStatus: CricketStatus = 'not_started';
  private readonly innings: Innings[] = [];
  private lastEvent: { vc: number; team: Side | '' } | undefined;
  private day = 0;
  private session = 0;
  /** The delivery after which play stops (rain, or bad light in a Test), or -1. */
  private stoppageAtBall: number;
  private readonly battingFirst: Side;
  private cached: CricketState | null = null;
  /** An over has ended and the next has not been started (a break came between). */
  private overClosed = false;

  constructor(
    readonly fixture: Fixture,
    readonly format: CricketFormat,
    private readonly time: SimTime,
  ) {
    this.random = new Random(fixture.seed).fork('cricket');
    this.rules = RULES[format];
    this.battingFirst = this.random.chance(0.5) ? 'home' : 'away';
    const stoppage = this.random.chance(format === 'test' ? 0.5 : 0.3);
    this.stoppageAtBall = !stoppage
      ? -1
      : format === 'test'
        ? this.random.int(200, 1500)
        : this.random.int(20, 200);
    this.now = fixture.startMs - CRICKET_PREMATCH_MS;
    this.nextAt = fixture.startMs;
    this.innings.push(this.newInnings(this.battingFirst, 1));
  }

  get status(): CricketStatus {
    return this.matchStatus;
  }

  get finished(): boolean {
    return this.matchStatus === 'ended';
  }

  /** At stumps the state is frozen: nothing, not even a repeat, goes out until play resumes. */
  get frozen(): boolean {
    return this.matchStatus === 'stumps';
  }

  catalogStatus(): FixtureStatus {
    if (this.matchStatus === 'not_started') return 'scheduled';
    if (this.matchStatus === 'ended') return 'finished';
    if (this.matchStatus === 'stumps') return 'close_of_play';
    return 'in_play';
  }

  advanceTo(target: number): boolean {
    let changed = false;
    while (this.nextAt <= target && this.matchStatus !== 'ended') {
      this.now = this.nextAt;
      this.nextAt = this.now + this.step();
      changed = true;
    }
    this.now = Math.max(this.now, target);
    if (changed) this.cached = null;
    return changed;
  }

  state(): CricketState {
    this.cached ??= this.build();
    return this.cached;
  }

  /** Plays what happens at `now`; answers how long until the next thing happens. */
  private step(): number {
    const current = this.current();
    switch (this.matchStatus) {
      case 'not_started':
        this.matchStatus = 'live';
        this.startOver(current);
        return this.rules.ballMs;
      case 'innings_break':
        this.matchStatus = 'live';
        this.innings.push(this.newInnings(this.other(current.side), this.innings.length >= 2 ? 2 : 1));
        this.startOver(this.current());
        return this.rules.ballMs;
      case 'rain':
      case 'bad_light':
      case 'drinks':
      case 'lunch':
      case 'tea':
        this.matchStatus = 'live';
        if (this.overClosed) this.startOver(current);
        else this.lastEvent = { vc: CRICKET_EVENT.bowling, team: this.other(current.side) };
        return this.rules.ballMs;
      case 'stumps':
        this.day++;
        this.session = 0;
        this.matchStatus = 'live';
        this.startOver(current);
        return this.rules.ballMs;
      default:
        return this.delivery(current);
    }
  }

  private delivery(innings: Innings): number {
    const r = this.random;
    const bowler = innings.bowlers[innings.bowler];
    const striker = innings.batters[innings.striker];
    const bowlingSide = this.other(innings.side);
    let legal = true;
    let vc: number = CRICKET_EVENT.runs;
    let symbol: string;
    let pause = this.rules.ballMs;
    const roll = r.next();
    if (roll < this.rules.wicketOdds) {
      const how = r.weighted<'bowled' | 'lbw' | 'caught' | 'stumped' | 'run_out'>([
        ['caught', 55],
        ['bowled', 20],
        ['lbw', 15],
        ['run_out', 6],
        ['stumped', 4],
      ]);
      const fielder = r.pick(innings.bowlers).name;
      striker.balls++;
      bowler.balls++;
      if (how !== 'run_out') bowler.wickets++;
      striker.dismissal =
        how === 'caught'
          ? `c ${fielder} b ${bowler.name}`
          : how === 'bowled'
            ? `b ${bowler.name}`
            : how === 'lbw'
              ? `lbw b ${bowler.name}`
              : how === 'stumped'
                ? `st ${fielder} b ${bowler.name}`
                : `run out (${fielder})`;
      innings.wickets++;
      innings.fallOfWickets.push({ wicket: innings.wickets, score: innings.runs, batsman: striker.name });
      vc = striker.runs === 0 ? CRICKET_EVENT.duck : CRICKET_EVENT[how];
      if (r.chance(0.1)) vc = CRICKET_EVENT.review;
      symbol = 'W';
      innings.thisOver.push(symbol);
      pause += 2 * MINUTE;
      if (innings.wickets < 10) {
        innings.striker = Math.max(innings.striker, innings.nonStriker) + 1;
      }
      this.lastEvent = { vc, team: bowlingSide };
    } else {
      const outcome = r.weighted<string>([
        ['0', 40],
        ['1', 30],
        ['2', 8],
        ['3', 1],
        ['4', this.format === 't20' ? 12 : 9],
        ['6', this.format === 't20' ? 5 : 2],
        ['wd', 2.5],
        ['nb', 0.8],
        ['b', 1],
        ['lb', 1.5],
      ]);
      let runs = 0;
      if (outcome === 'wd' || outcome === 'nb') {
        legal = false;
        runs = 1;
        innings.extras[outcome === 'wd' ? 'w' : 'nb']++;
        bowler.runs++;
        vc = outcome === 'wd' ? CRICKET_EVENT.wide : CRICKET_EVENT.no_ball;
        symbol = `1${outcome}`;
      } else if (outcome === 'b' || outcome === 'lb') {
        runs = 1;
        innings.extras[outcome]++;
        striker.balls++;
        bowler.balls++;
        vc = outcome === 'b' ? CRICKET_EVENT.bye : CRICKET_EVENT.leg_bye;
        symbol = `1${outcome}`;
      } else {
        runs = Number(outcome);
        const before = striker.runs;
        striker.runs += runs;
        striker.balls++;
        bowler.balls++;
        bowler.runs += runs;
        if (runs === 4) striker.fours++;
        if (runs === 6) striker.sixes++;
        vc = runs === 4 ? CRICKET_EVENT.four : runs === 6 ? CRICKET_EVENT.six : CRICKET_EVENT.runs;
        if (before < 100 && striker.runs >= 100) vc = CRICKET_EVENT.century;
        symbol = outcome;
      }
      innings.runs += runs;
      innings.overRuns += runs;
      innings.thisOver.push(symbol);
      if (runs % 2 === 1) [innings.striker, innings.nonStriker] = [innings.nonStriker, innings.striker];
      this.lastEvent = { vc, team: innings.side };
    }
    if (legal) innings.legalBalls++;
    return this.afterDelivery(innings, pause);
  }

  /** Decides what follows a delivery: the next ball, an over change, a break, the end of an innings or match. */
  private afterDelivery(innings: Innings, pause: number): number {
    const rules = this.rules;
    const target = this.target(innings);
    const chased = target !== null && innings.runs >= target;
    const oversDone = rules.overs !== null && innings.legalBalls >= rules.overs * 6;
    if (innings.wickets >= 10 || oversDone || chased) {
      this.closeOver(innings);
      innings.closed = true;
      const inningsDefeat = this.format === 'test' && this.innings.length === 3 && this.thirdInningsTrails();
      if (chased || inningsDefeat || this.innings.length >= rules.innings) {
        this.matchStatus = 'ended';
        this.lastEvent = { vc: CRICKET_EVENT.match_ended, team: '' };
        return 0;
      }
      this.matchStatus = 'innings_break';
      this.lastEvent = { vc: CRICKET_EVENT.innings_break, team: '' };
      return this.format === 't20' ? 20 * MINUTE : this.format === 'one_day' ? 45 * MINUTE : 10 * MINUTE;
    }
    // Play stops mid-over, so the over in progress resumes where it left off.
    if (
      this.stoppageAtBall >= 0 &&
      this.totalBalls() >= this.stoppageAtBall &&
      innings.legalBalls % 6 !== 0
    ) {
      this.stoppageAtBall = -1;
      this.matchStatus = this.format === 'test' ? 'bad_light' : 'rain';
      return this.random.int(20, 70) * MINUTE;
    }
    if (innings.legalBalls % 6 !== 0 || innings.thisOver.length === 0) return pause;
    this.closeOver(innings);
    if (this.format === 'test') {
      const dayStart = this.fixture.startMs + this.day * DAY;
      const sessionEnd = dayStart + (this.session + 1) * SESSION_MS + this.session * 30 * MINUTE;
      if (this.now >= sessionEnd) return this.endSession(dayStart);
    } else if (this.format === 'one_day' && innings.legalBalls === 25 * 6) {
      this.matchStatus = 'drinks';
      return 5 * MINUTE;
    }
    this.startOver(innings);
    return pause + MINUTE;
  }

  private endSession(dayStart: number): number {
    this.session++;
    if (this.session === 1) {
      this.matchStatus = 'lunch';
      return 40 * MINUTE;
    }
    if (this.session === 2) {
      this.matchStatus = 'tea';
      return 20 * MINUTE;
    }
    if (this.day >= 4) {
      this.matchStatus = 'ended';
      this.lastEvent = { vc: CRICKET_EVENT.match_ended, team: '' };
      return 0;
    }
    this.matchStatus = 'stumps';
    return dayStart + DAY - this.now;
  }

  private closeOver(innings: Innings): void {
    if (innings.thisOver.length === 0) return;
    const over = Math.ceil(innings.legalBalls / 6);
    if (innings.overs.some((row) => row.over === over)) return;
    innings.overs.push({ over, runs: innings.overRuns, score: `${innings.runs}/${innings.wickets}` });
    const bowler = innings.bowlers[innings.bowler];
    if (innings.overRuns === 0 && innings.legalBalls % 6 === 0) {
      bowler.maidens++;
      this.lastEvent = { vc: CRICKET_EVENT.maiden_over, team: this.other(innings.side) };
    } else if (innings.legalBalls % 6 === 0) {
      this.lastEvent = { vc: CRICKET_EVENT.end_of_over, team: this.other(innings.side) };
    }
    [innings.striker, innings.nonStriker] = [innings.nonStriker, innings.striker];
    this.overClosed = true;
  }

  private startOver(innings: Innings): void {
    this.overClosed = false;
    innings.thisOver = [];
    innings.overRuns = 0;
    if (innings.legalBalls > 0) {
      let next = this.random.int(0, innings.bowlers.length - 1);
      if (next === innings.bowler) next = (next + 1) % innings.bowlers.length;
      innings.bowler = next;
    }
    this.lastEvent = { vc: CRICKET_EVENT.bowling, team: this.other(innings.side) };
  }

  private target(innings: Innings): number | null {
    if (this.format !== 'test') {
      return this.innings.length === 2 ? this.innings[0].runs + 1 : null;
    }
    if (this.innings.length !== 4) return null;
    const own = this.innings.filter((i) => i.side === innings.side).reduce((sum, i) => sum + i.runs, 0);
    const theirs = this.innings.filter((i) => i.side !== innings.side).reduce((sum, i) => sum + i.runs, 0);
    return theirs - (own - innings.runs) + 1;
  }

  /** After three innings of a Test: the side that batted twice is still behind, beaten by an innings. */
  private thirdInningsTrails(): boolean {
    const twice = this.innings[2].side;
    const runsOf = (side: Side) =>
      this.innings.filter((i) => i.side === side).reduce((sum, i) => sum + i.runs, 0);
    return runsOf(twice) < runsOf(this.other(twice));
  }

  private totalBalls(): number {
    return this.innings.reduce((sum, i) => sum + i.legalBalls, 0);
  }

  private current(): Innings {
    return this.innings[this.innings.length - 1];
  }

  private other(side: Side): Side {
    return side === 'home' ? 'away' : 'home';
  }

  private newInnings(side: Side, phase: number): Innings {
    const batting = side === 'home' ? this.fixture.home : this.fixture.away;
    const bowling = side === 'home' ? this.fixture.away : this.fixture.home;
    return {
      side,
      phase,
      runs: 0,
      wickets: 0,
      legalBalls: 0,
      batters: batting.players.slice(0, 11).map((name) => ({
        name,
        runs: 0,
        balls: 0,
        fours: 0,
        sixes: 0,
        dismissal: null,
      })),
      striker: 0,
      nonStriker: 1,
      bowlers: bowling.players
        .slice(6, 11)
        .map((name) => ({ name, balls: 0, maidens: 0, runs: 0, wickets: 0 })),
      bowler: 0,
      thisOver: [],
      overRuns: 0,
      overs: [],
      fallOfWickets: [],
      extras: { b: 0, lb: 0, w: 0, nb: 0 },
      closed: false,
    };
  }

  private build(): CricketState {
    const innings = this.current();
    const striker = innings.batters[Math.min(innings.striker, 10)];
    const nonStriker = innings.batters[Math.min(innings.nonStriker, 10)];
    const bowler = innings.bowlers[innings.bowler];
    const ballInOver = innings.legalBalls % 6;
    const completedOvers = Math.floor(innings.legalBalls / 6);
    const overNumber = ballInOver === 0 && innings.thisOver.length > 0 ? completedOvers : completedOvers + 1;
    const state: CricketState = {
      sport: 'cricket',
      competition: this.competition(),
      status: this.matchStatus,
      format: this.format,
      innings: this.innings.length,
      batting: innings.side,
      score: inningsScore(innings),
      set_score: this.innings
        .filter((i) => i.side === innings.side)
        .map((i) => (i.wickets >= 10 ? String(i.runs) : `${i.runs}/${i.wickets}`))
        .join(' & '),
      over: {
        number: Math.max(1, overNumber),
        ball: ballInOver === 0 && innings.thisOver.length > 0 ? 6 : ballInOver,
        this_over: [...innings.thisOver],
      },
      batsmen: [
        { name: striker.name, runs: striker.runs, balls: striker.balls, on_strike: true },
        { name: nonStriker.name, runs: nonStriker.runs, balls: nonStriker.balls },
      ],
      bowler: {
        name: bowler.name,
        overs: oversOf(bowler.balls),
        maidens: bowler.maidens,
        runs: bowler.runs,
        wickets: bowler.wickets,
      },
      at: this.time.iso(this.now),
    };
    if (this.lastEvent) state.last_event = { ...this.lastEvent };
    if (this.matchStatus !== 'not_started') state.scorecard = this.innings.map((i) => this.scorecardItem(i));
    return state;
  }

  private competition(): string {
    if (this.format !== 'test') return this.fixture.league.name;
    const number = ((this.fixture.index % 5) + 5) % 5;
    return `${this.fixture.league.name} - ${['1st', '2nd', '3rd', '4th', '5th'][number]} Test`;
  }

  /** One innings in the public scorecard shape. */
  private scorecardItem(innings: Innings): Record<string, unknown> {
    const team = innings.side === 'home' ? this.fixture.home : this.fixture.away;
    const extras = innings.extras.b + innings.extras.lb + innings.extras.w + innings.extras.nb;
    const item: Record<string, unknown> = {
      team: team.name,
      phase: innings.phase === 1 ? '1st' : '2nd',
      score: inningsScore(innings),
      batting: innings.batters
        .filter(
          (b, i) => b.balls > 0 || b.dismissal !== null || i === innings.striker || i === innings.nonStriker,
        )
        .map((b) => ({
          name: b.name,
          dismissal: b.dismissal ?? 'not out',
          runs: b.runs,
          balls: b.balls,
          fours: b.fours,
          sixes: b.sixes,
          strike_rate: b.balls === 0 ? 0 : Math.round((10000 * b.runs) / b.balls) / 100,
        })),
      bowling: innings.bowlers
        .filter((b) => b.balls > 0)
        .map((b) => ({
          name: b.name,
          overs: oversOf(b.balls),
          maidens: b.maidens,
          runs: b.runs,
          wickets: b.wickets,
          economy: Math.round((600 * b.runs) / b.balls) / 100,
        })),
      fall_of_wickets: innings.fallOfWickets.map((row) => ({ ...row })),
      overs: innings.overs.map((row) => ({ ...row })),
      extras_detail: `(b ${innings.extras.b}, lb ${innings.extras.lb}, w ${innings.extras.w}, nb ${innings.extras.nb})`,
    };
    if (!innings.closed && innings === this.current() && this.matchStatus !== 'ended') item.live = true;
    if (extras > 0) item.extras = extras;
    return item;
  }
}

/** `245/6 (61.2)`, or `312 (88.4)` once all out. */
export function inningsScore(innings: { runs: number; wickets: number; legalBalls: number }): string {
  const overs = oversOf(innings.legalBalls);
  return innings.wickets >= 10
    ? `${innings.runs} (${overs})`
    : `${innings.runs}/${innings.wickets} (${overs})`;
}

export function oversOf(legalBalls: number): string {
  const whole = Math.floor(legalBalls / 6);
  const balls = legalBalls % 6;
  return balls === 0 ? String(whole) : `${whole}.${balls}`;
}

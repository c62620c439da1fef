import type { Fixture } from './catalog';
import { Random } from './random';
import { MINUTE, SECOND, type SimTime } from './sim-time';

export type SoccerStatus = 'not_started' | '1h' | 'ht' | '2h' | 'et' | 'pen' | 'ft';
type Side = 'home' | 'away';
type Zone = 'safe' | 'attack' | 'dangerous';

/** Phase codes of the provider's phase table (plus one it does not list). */
export const PHASE = {
  kickoff: 1000,
  safe: 1001,
  attack: 1002,
  dangerous_attack: 1003,
  shot: 1004,
  goal_kick: 1005,
  corner: 1006,
  free_kick: 1007,
  dangerous_free_kick: 1008,
  throw_in: 1009,
  penalty: 1010,
  goal: 1011,
  substitution: 1012,
  injury: 1013,
  offside: 1014,
  var: 1015,
  break: 1016,
  /** A cooling break: not in the table, so readers must decode it as `other`. */
  cooling_break: 1017,
} as const;

export const INCIDENT = {
  goal: 2001,
  corner: 2002,
  yellow_card: 2003,
  red_card: 2004,
  penalty: 2005,
  substitution: 2006,
  shootout: 2007,
} as const;

const STAT_KEYS = [
  'shots_on_target',
  'shots_off_target',
  'attacks',
  'dangerous_attacks',
  'possession',
  'corners',
  'yellow_cards',
  'red_cards',
] as const;
type StatKey = (typeof STAT_KEYS)[number];

export interface SoccerIncident {
  vc: number;
  minute: string;
  team: Side;
  player?: string;
  score?: string;
}

export interface SoccerState {
  sport: 'soccer';
  competition: string;
  status: SoccerStatus;
  clock: { minute: number; second: number; period: string; running: boolean; added: number; at?: string };
  score: { home: number; away: number; shootout?: { home: number; away: number } };
  phase: { vc: number; team: Side | '' };
  stats: Record<StatKey, [number, number]>;
  incidents: SoccerIncident[];
  ball?: { x: number; y: number; vc: number; minute?: string; detail?: string };
  extras: { xg: [number, number]; pressure: number[]; form: [string, string] };
}

type Period = 'pre' | '1H' | 'HT' | '2H' | 'ET1' | 'ET2' | 'PEN' | 'FT';

/** Minutes of play before each period starts, for the match clock. */
const PERIOD_BASE: Partial<Record<Period, number>> = { '1H': 0, '2H': 45, ET1: 90, ET2: 105 };
const PERIOD_LENGTH: Partial<Record<Period, number>> = { '1H': 45, '2H': 45, ET1: 15, ET2: 15 };

export const PREMATCH_MS = 15 * MINUTE;
const HALF_TIME_MS = 15 * MINUTE;
const STEP_MS = SECOND;

/**
 * One soccer match, stepped a simulated second at a time from its own seed:
 * possession moves between zones, attacks turn into shots, corners, cards and
 * goals, and the clock runs through 1H, HT, 2H, FT (with extra time and a
 * shootout for a drawn cup tie). `state()` is the provider's live state.
 */
export class SoccerMatch {
  private readonly random: Random;
  private now: number;
  private period: Period = 'pre';
  private periodElapsed = 0;
  private added = 0;
  private plannedAdded = 0;
  private possession: Side = 'home';
  private zone: Zone = 'safe';
  private phase: { vc: number; team: Side | '' } = { vc: PHASE.break, team: '' };
  private hold = 0;
  private readonly score = { home: 0, away: 0 };
  private shootout: { home: number; away: number } | null = null;
  private shootoutKicks = 0;
  private readonly stats = Object.fromEntries(STAT_KEYS.map((key) => [key, [0, 0]])) as Record<
    StatKey,
    [number, number]
  >;
  private readonly possessionSeconds: [number, number] = [0, 0];
  private readonly xg: [number, number] = [0, 0];
  private readonly pressure: number[] = [];
  private readonly form: [string, string];
  private readonly incidents: SoccerIncident[] = [];
  private ball: SoccerState['ball'];
  private substitutions: [number, number] = [0, 0];
  private cached: SoccerState | null = null;
  /** A phase to show once the current one has been held (goal kick after a miss, VAR after a goal). */
  private pendingPhase: number | null = null;
  private afterGoal = false;
  private extraTime = false;

  constructor(
    readonly fixture: Fixture,
    private readonly time: SimTime,
  ) {
    this.random = new Random(fixture.seed).fork('soccer');
    const formRandom = this.random.fork('form');
    const formOf = () => Array.from({ length: 5 }, () => formRandom.pick(['W', 'D', 'L'])).join('');
    this.form = [formOf(), formOf()];
    this.now = fixture.startMs - PREMATCH_MS;
  }

  get status(): SoccerStatus {
    switch (this.period) {
      case 'pre':
        return 'not_started';
      case '1H':
        return '1h';
      case 'HT':
        return 'ht';
      case '2H':
        return '2h';
      case 'ET1':
      case 'ET2':
        return 'et';
      case 'PEN':
        return 'pen';
      default:
        return 'ft';
    }
  }

  get finished(): boolean {
    return this.period === 'FT';
  }

  get goals(): { home: number; away: number } {
    return { ...this.score };
  }

  /** Steps the match to sim time `target`; true when its state changed. */
  advanceTo(target: number): boolean {
    let changed = false;
    while (this.now + STEP_MS <= target && this.period !== 'FT') {
      this.now += STEP_MS;
      if (this.step()) changed = true;
    }
    if (changed) this.cached = null;
    return changed;
  }

  state(): SoccerState {
    this.cached ??= this.build();
    return this.cached;
  }

  private step(): boolean {
    switch (this.period) {
      case 'pre':
        if (this.now < this.fixture.startMs) return false;
        this.startPeriod('1H', 'home');
        return true;
      case 'HT':
        this.periodElapsed += STEP_MS;
        if (this.periodElapsed < HALF_TIME_MS) return false;
        this.startPeriod('2H', 'away');
        return true;
      case 'PEN':
        return this.stepShootout();
      default:
        return this.stepPlay();
    }
  }

  private startPeriod(period: Period, kicking: Side): void {
    this.period = period;
    this.periodElapsed = 0;
    this.added = 0;
    this.plannedAdded = period === '1H' ? this.random.int(0, 4) : period === '2H' ? this.random.int(1, 7) : 1;
    this.possession = kicking;
    this.zone = 'safe';
    this.setPhase(PHASE.kickoff, kicking, 3);
    this.ball = { x: 0.5, y: 0.5, vc: PHASE.kickoff };
  }

  private endPeriod(): void {
    const level = this.score.home === this.score.away;
    if (this.period === '1H') {
      this.period = 'HT';
      this.periodElapsed = 0;
      this.phase = { vc: PHASE.break, team: '' };
    } else if (this.period === '2H' && level && this.fixture.league.cup) {
      this.extraTime = true;
      this.startPeriod('ET1', 'home');
    } else if (this.period === 'ET1') {
      this.startPeriod('ET2', 'away');
    } else if (this.period === 'ET2' && level) {
      this.period = 'PEN';
      this.periodElapsed = 0;
      this.shootout = { home: 0, away: 0 };
      this.phase = { vc: PHASE.penalty, team: 'home' };
    } else {
      this.period = 'FT';
      this.phase = { vc: PHASE.break, team: '' };
    }
  }

  private stepShootout(): boolean {
    this.periodElapsed += STEP_MS;
    if (this.periodElapsed % MINUTE !== 0 || !this.shootout) return false;
    const side: Side = this.shootoutKicks % 2 === 0 ? 'home' : 'away';
    const player = this.player(side);
    if (this.random.chance(0.75)) this.shootout[side]++;
    this.shootoutKicks++;
    this.incidents.push({
      vc: INCIDENT.shootout,
      minute: '120',
      team: side,
      player,
      score: `${this.shootout.home}-${this.shootout.away}`,
    });
    this.phase = { vc: PHASE.penalty, team: side === 'home' ? 'away' : 'home' };
    const homeTaken = Math.ceil(this.shootoutKicks / 2);
    const awayTaken = Math.floor(this.shootoutKicks / 2);
    const { home, away } = this.shootout;
    const decided =
      this.shootoutKicks <= 10
        ? home + (5 - homeTaken) < away || away + (5 - awayTaken) < home
        : homeTaken === awayTaken && home !== away;
    if (decided) {
      this.period = 'FT';
      this.phase = { vc: PHASE.break, team: '' };
    }
    return true;
  }

  private stepPlay(): boolean {
    this.periodElapsed += STEP_MS;
    const length = (PERIOD_LENGTH[this.period] ?? 45) * MINUTE;
    if (this.periodElapsed === length - MINUTE) this.added = this.plannedAdded;
    if (this.periodElapsed >= length + this.plannedAdded * MINUTE && this.hold === 0) {
      this.endPeriod();
      return true;
    }
    this.possessionSeconds[this.possession === 'home' ? 0 : 1]++;
    if (this.periodElapsed % MINUTE === 0) this.recordPressure();
    if (this.hold > 0) {
      this.hold--;
      if (this.hold === 0) this.resume();
      this.moveBall();
      return true;
    }
    this.playSecond();
    this.moveBall();
    return true;
  }

  private playSecond(): void {
    const r = this.random;
    if (r.chance(0.0006)) return this.card(r.chance(0.5) ? 'home' : 'away', r.chance(0.06));
    if (r.chance(0.0002)) return this.setPhase(PHASE.injury, this.possession, 30);
    if (r.chance(0.00008)) return this.setPhase(PHASE.cooling_break, '', 60);
    if (this.minute() >= 55 && r.chance(0.0012)) return this.substitution(r.chance(0.5) ? 'home' : 'away');
    const other: Side = this.possession === 'home' ? 'away' : 'home';
    if (this.zone === 'safe') {
      if (r.chance(0.05)) return this.turnover();
      if (r.chance(0.01)) return this.setPhase(PHASE.throw_in, this.possession, 4);
      if (r.chance(0.08)) return this.enterZone('attack');
    } else if (this.zone === 'attack') {
      if (r.chance(0.08)) return this.turnover();
      if (r.chance(0.03)) return this.setPhase(PHASE.throw_in, this.possession, 4);
      if (r.chance(0.015)) return this.setPhase(PHASE.free_kick, this.possession, 6);
      if (r.chance(0.005)) {
        this.setPhase(PHASE.offside, other, 5);
        this.possession = other;
        this.zone = 'safe';
        return;
      }
      if (r.chance(0.06)) return this.enterZone('safe');
      if (r.chance(0.12)) return this.enterZone('dangerous');
    } else {
      if (r.chance(0.04)) return this.shot();
      if (r.chance(0.012)) return this.corner(this.possession);
      if (r.chance(0.02)) return this.setPhase(PHASE.dangerous_free_kick, this.possession, 8);
      if (r.chance(0.0015)) return this.penalty();
      if (r.chance(0.12)) return this.turnover();
      if (r.chance(0.08)) return this.enterZone('attack');
    }
    this.phase = { vc: this.zoneCode(), team: this.possession };
  }

  private zoneCode(): number {
    return this.zone === 'safe' ? PHASE.safe : this.zone === 'attack' ? PHASE.attack : PHASE.dangerous_attack;
  }

  private enterZone(zone: Zone): void {
    const side = this.possession === 'home' ? 0 : 1;
    if (zone === 'attack' && this.zone === 'safe') this.stats.attacks[side]++;
    if (zone === 'dangerous') this.stats.dangerous_attacks[side]++;
    this.zone = zone;
    this.phase = { vc: this.zoneCode(), team: this.possession };
  }

  private turnover(): void {
    this.possession = this.possession === 'home' ? 'away' : 'home';
    this.zone = this.zone === 'dangerous' ? 'safe' : this.zone === 'safe' ? 'attack' : 'safe';
    this.phase = { vc: this.zoneCode(), team: this.possession };
  }

  private shot(): void {
    const side = this.possession;
    const index = side === 'home' ? 0 : 1;
    const quality = 0.05 + this.random.next() * 0.3;
    this.xg[index] = round2(this.xg[index] + quality);
    if (this.random.chance(0.4)) {
      this.stats.shots_on_target[index]++;
      if (this.random.chance(0.2 + quality)) return this.goal(side);
      if (this.random.chance(0.3)) return this.corner(side);
      this.setPhase(PHASE.shot, side, 3);
      this.possession = side === 'home' ? 'away' : 'home';
      this.zone = 'safe';
    } else {
      this.stats.shots_off_target[index]++;
      this.setPhase(PHASE.shot, side, 2);
      this.possession = side === 'home' ? 'away' : 'home';
      this.zone = 'safe';
      this.pendingPhase = PHASE.goal_kick;
    }
  }

  private goal(side: Side, penalty = false): void {
    this.score[side]++;
    const player = this.player(side);
    const minute = this.minuteLabel();
    const score = `${this.score.home}-${this.score.away}`;
    this.incidents.push({ vc: INCIDENT.goal, minute, team: side, player, score });
    this.setPhase(PHASE.goal, side, 40);
    this.ball = {
      x: side === 'home' ? 1 : 0,
      y: 0.5,
      vc: PHASE.goal,
      minute,
      detail: `Goal - ${player}${penalty ? ' (pen)' : ''}`,
    };
    if (this.random.chance(0.1)) this.pendingPhase = PHASE.var;
    this.possession = side === 'home' ? 'away' : 'home';
    this.zone = 'safe';
    this.afterGoal = true;
  }

  private corner(side: Side): void {
    this.stats.corners[side === 'home' ? 0 : 1]++;
    const minute = this.minuteLabel();
    this.incidents.push({ vc: INCIDENT.corner, minute, team: side });
    this.setPhase(PHASE.corner, side, 12);
    this.ball = {
      x: side === 'home' ? 0.99 : 0.01,
      y: this.random.chance(0.5) ? 0.01 : 0.99,
      vc: PHASE.corner,
      minute,
      detail: 'Corner',
    };
    this.possession = side;
    this.zone = 'dangerous';
  }

  private penalty(): void {
    const side = this.possession;
    const minute = this.minuteLabel();
    this.incidents.push({ vc: INCIDENT.penalty, minute, team: side });
    if (this.random.chance(0.78)) return this.goal(side, true);
    this.setPhase(PHASE.penalty, side, 20);
    this.possession = side === 'home' ? 'away' : 'home';
    this.zone = 'safe';
  }

  private card(side: Side, red: boolean): void {
    const index = side === 'home' ? 0 : 1;
    const player = this.player(side);
    const minute = this.minuteLabel();
    if (red) this.stats.red_cards[index]++;
    else this.stats.yellow_cards[index]++;
    this.incidents.push({ vc: red ? INCIDENT.red_card : INCIDENT.yellow_card, minute, team: side, player });
    this.setPhase(PHASE.free_kick, side === 'home' ? 'away' : 'home', 20);
    this.ball = {
      x: round2(0.2 + this.random.next() * 0.6),
      y: round2(this.random.next()),
      vc: PHASE.free_kick,
      minute,
      detail: `${red ? 'Red' : 'Yellow'} card - ${player}`,
    };
  }

  private substitution(side: Side): void {
    const index = side === 'home' ? 0 : 1;
    if (this.substitutions[index] >= 5) return;
    this.substitutions[index]++;
    this.incidents.push({
      vc: INCIDENT.substitution,
      minute: this.minuteLabel(),
      team: side,
      player: this.player(side),
    });
    this.setPhase(PHASE.substitution, side, 25);
  }

  private setPhase(vc: number, team: Side | '', hold: number): void {
    this.phase = { vc, team };
    this.hold = hold;
  }

  private resume(): void {
    if (this.pendingPhase !== null) {
      const vc = this.pendingPhase;
      this.pendingPhase = null;
      this.setPhase(vc, this.possession, vc === PHASE.var ? 60 : 3);
      return;
    }
    if (this.afterGoal) {
      this.afterGoal = false;
      this.setPhase(PHASE.kickoff, this.possession, 3);
      this.ball = { x: 0.5, y: 0.5, vc: PHASE.kickoff };
      return;
    }
    this.phase = { vc: this.zoneCode(), team: this.possession };
  }

  private moveBall(): void {
    const r = this.random;
    if (this.hold > 0 && this.ball?.detail) return;
    const [low, high] =
      this.zone === 'safe' ? [0.25, 0.5] : this.zone === 'attack' ? [0.5, 0.75] : [0.75, 0.95];
    const forward = low + r.next() * (high - low);
    const x = this.possession === 'home' ? forward : 1 - forward;
    const previousY = this.ball?.y ?? 0.5;
    const y = Math.min(0.98, Math.max(0.02, previousY + (r.next() - 0.5) * 0.3));
    this.ball = { x: round2(x), y: round2(y), vc: this.phase.vc };
  }

  private recordPressure(): void {
    const share =
      this.possessionSeconds[0] / Math.max(1, this.possessionSeconds[0] + this.possessionSeconds[1]);
    const value = round2(Math.max(-1, Math.min(1, (share - 0.5) * 2 + (this.random.next() - 0.5) * 0.6)));
    this.pressure.push(value);
    if (this.pressure.length > 10) this.pressure.shift();
  }

  private player(side: Side): string {
    const team = side === 'home' ? this.fixture.home : this.fixture.away;
    return this.random.pick(team.players.slice(0, 11));
  }

  private minute(): number {
    return (PERIOD_BASE[this.period] ?? 0) + Math.floor(this.periodElapsed / MINUTE);
  }

  /** The printed minute: the running minute, or `45+2` in added time. */
  private minuteLabel(): string {
    const length = PERIOD_LENGTH[this.period] ?? 45;
    const inPeriod = Math.floor(this.periodElapsed / MINUTE) + 1;
    const base = PERIOD_BASE[this.period] ?? 0;
    return inPeriod > length ? `${base + length}+${inPeriod - length}` : String(base + inPeriod);
  }

  private clock(): SoccerState['clock'] {
    const at = this.time.iso(this.now);
    if (this.period === 'pre') return { minute: 0, second: 0, period: '1H', running: false, added: 0 };
    if (this.period === 'HT') return { minute: 45, second: 0, period: 'HT', running: false, added: 0, at };
    if (this.period === 'FT' || this.period === 'PEN') {
      return {
        minute: this.extraTime ? 120 : 90,
        second: 0,
        period: this.period,
        running: false,
        added: 0,
        at,
      };
    }
    const elapsedSeconds = this.periodElapsed / SECOND;
    return {
      minute: (PERIOD_BASE[this.period] ?? 0) + Math.floor(elapsedSeconds / 60),
      second: elapsedSeconds % 60,
      period: this.period,
      running: true,
      added: this.added,
      at,
    };
  }

  private build(): SoccerState {
    const [home, away] = this.possessionSeconds;
    const homeShare = home + away === 0 ? 50 : Math.round((100 * home) / (home + away));
    this.stats.possession = [homeShare, 100 - homeShare];
    const score: SoccerState['score'] = { ...this.score };
    if (this.shootout) score.shootout = { ...this.shootout };
    const state: SoccerState = {
      sport: 'soccer',
      competition: this.fixture.league.name,
      status: this.status,
      clock: this.clock(),
      score,
      phase: { ...this.phase },
      stats: Object.fromEntries(STAT_KEYS.map((key) => [key, [...this.stats[key]]])) as SoccerState['stats'],
      incidents: this.incidents.map((incident) => ({ ...incident })),
      extras: { xg: [...this.xg], pressure: [...this.pressure], form: [...this.form] },
    };
    if (this.ball) state.ball = { ...this.ball };
    return state;
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

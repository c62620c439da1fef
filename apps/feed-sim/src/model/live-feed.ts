import { type Catalog, type Fixture, type FixtureStatus, fateStatus, fixturePlays } from './catalog';
import { CRICKET_PREMATCH_MS, CricketMatch } from './cricket-match';
import { Random } from './random';
import { isoSeconds, type SimTime } from './sim-time';
import { PREMATCH_MS, SoccerMatch } from './soccer-match';

type LiveModel = SoccerMatch | CricketMatch;

export interface LiveMessage {
  readonly statId: string;
  readonly seq: number;
  /** The envelope, serialized once for every reader. */
  readonly json: string;
}

/** Chance per tick that an unchanged match is sent again, as the provider does now and then. */
const RESEND_CHANCE = 0.02;

/**
 * The live side of the provider: one model per soccer and cricket fixture
 * from shortly before its start until it leaves the catalog, a `seq` per
 * stat_id, the latest envelope per stat_id, and the catalog status each
 * fixture has at the current sim time.
 */
export class LiveFeed {
  private readonly models = new Map<string, LiveModel>();
  private readonly latest = new Map<string, LiveMessage>();
  private readonly seqs = new Map<string, number>();
  private readonly random: Random;
  private now: number;

  constructor(
    private readonly catalog: Catalog,
    private readonly time: SimTime,
    start: number,
  ) {
    this.random = Random.of(catalog.seed, 'live-feed');
    this.now = start;
  }

  get simNow(): number {
    return this.now;
  }

  /**
   * Moves every live fixture to sim time `now` and answers the envelopes to
   * send: one per match whose state changed, plus the odd repeat.
   */
  advance(now: number, wallNow: number): LiveMessage[] {
    this.now = now;
    const sentAt = isoSeconds(wallNow);
    const out: LiveMessage[] = [];
    const listed = new Set<string>();
    for (const league of this.catalog.leagues) {
      if (league.sport !== 'soccer' && league.sport !== 'cricket') continue;
      for (const fixture of this.catalog.fixturesOf(league, now)) {
        listed.add(fixture.id);
        const model = this.modelOf(fixture, now);
        if (!model) continue;
        const changed = model.advanceTo(now);
        const frozen = model instanceof CricketMatch && model.frozen;
        const known = this.latest.has(fixture.statId);
        if (changed || !known || (!frozen && this.random.chance(RESEND_CHANCE))) {
          out.push(this.emit(fixture, model, sentAt));
        }
      }
    }
    for (const [id, model] of this.models) {
      if (listed.has(id)) continue;
      this.models.delete(id);
      this.latest.delete(model.fixture.statId);
      this.seqs.delete(model.fixture.statId);
    }
    return out;
  }

  /** The latest envelope of every match with live state, for a stream that just connected. */
  current(): LiveMessage[] {
    return [...this.latest.values()];
  }

  latestOf(statId: string): LiveMessage | undefined {
    return this.latest.get(statId);
  }

  model(fixtureId: string): LiveModel | undefined {
    return this.models.get(fixtureId);
  }

  /** Catalog status at the current sim time, from the fate, then the live model, then the clock. */
  statusOf(fixture: Fixture): FixtureStatus {
    const imposed = fateStatus(fixture, this.now);
    if (imposed) return imposed;
    const model = this.models.get(fixture.id);
    if (model) {
      if (model instanceof CricketMatch) return model.catalogStatus();
      if (model.finished) return 'finished';
      return model.status === 'not_started' ? 'scheduled' : 'in_play';
    }
    const sport = fixture.league.sport;
    if (sport === 'tennis' || sport === 'basketball') return clockStatus(fixture, this.now);
    return fixture.startMs <= this.now ? 'finished' : 'scheduled';
  }

  private modelOf(fixture: Fixture, now: number): LiveModel | undefined {
    const existing = this.models.get(fixture.id);
    if (existing) return existing;
    if (!fixturePlays(fixture) || fateStatus(fixture, now)) return undefined;
    const sport = fixture.league.sport;
    const lead = sport === 'soccer' ? PREMATCH_MS : CRICKET_PREMATCH_MS;
    if (now < fixture.startMs - lead) return undefined;
    const model =
      sport === 'soccer'
        ? new SoccerMatch(fixture, this.time)
        : new CricketMatch(fixture, fixture.league.format ?? 't20', this.time);
    this.models.set(fixture.id, model);
    return model;
  }

  private emit(fixture: Fixture, model: LiveModel, sentAt: string): LiveMessage {
    const seq = (this.seqs.get(fixture.statId) ?? this.firstSeq(fixture)) + 1;
    this.seqs.set(fixture.statId, seq);
    const json = JSON.stringify({ stat_id: fixture.statId, seq, sent_at: sentAt, state: model.state() });
    const message: LiveMessage = { statId: fixture.statId, seq, json };
    this.latest.set(fixture.statId, message);
    return message;
  }

  /** Sequences start somewhere arbitrary, as a provider's do; readers compare, never count. */
  private firstSeq(fixture: Fixture): number {
    return new Random(fixture.seed).int(1000, 90000);
  }
}

/** Sports without live data follow the clock alone. */
export function clockStatus(fixture: Fixture, now: number): FixtureStatus {
  if (now < fixture.startMs) return 'scheduled';
  const length = (100 + (fixture.seed % 50)) * 60 * 1000;
  return now < fixture.startMs + length ? 'in_play' : 'finished';
}

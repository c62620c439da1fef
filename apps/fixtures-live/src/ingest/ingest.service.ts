import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { IngestLeadership } from '@app/leadership';
import { NatsEventClient, Subjects } from '@app/messaging';
import { UpstreamMonitor } from '@app/observability';
import type { FixturesEnv } from '../config/fixtures.env';
import { CatalogChangeNotifier } from './catalog-change-notifier';
import { CatalogPoller } from './catalog-poller.service';
import { CatalogStore } from './catalog-store';
import { KitResolver } from './kit-resolver.service';
import { LiveFeed } from './live-feed';
import { LiveIngestService } from './live-ingest.service';
import { FIXTURES_INGEST_LEASE } from './fixtures-ingest-lease';
import { describeFault, LivescoresClient } from './livescores-client';
import { MatchRegistry } from './match-registry';

/** How often the ingest tells api replicas whether the provider's live connection is healthy. */
const FEED_HEALTH_EVERY_MS = 1_000;

/**
 * Runs the ingest side in ROLE `ingest` or `all` while this process holds
 * the fixtures ingest lease: the catalog poll loop, the live feed and kit
 * resolution. A standby process runs none of them until it takes over.
 */
@Injectable()
export class IngestService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestService.name);
  private feed?: LiveFeed;
  private pollTimer?: NodeJS.Timeout;
  private healthTimer?: NodeJS.Timeout;
  private faultyPolls = 0;
  private active = false;
  /** Grows with every activation, so a poll loop of an earlier term ends instead of running twice. */
  private term = 0;
  private polls = 0;

  constructor(
    private readonly config: ConfigService<FixturesEnv, true>,
    private readonly client: LivescoresClient,
    private readonly poller: CatalogPoller,
    private readonly store: CatalogStore,
    private readonly registry: MatchRegistry,
    private readonly live: LiveIngestService,
    private readonly kits: KitResolver,
    private readonly changes: CatalogChangeNotifier,
    private readonly upstream: UpstreamMonitor,
    private readonly events: NatsEventClient,
    private readonly leadership: IngestLeadership,
  ) {}

  /** Completed catalog polls, clean or not (tests wait on it). */
  get completedPolls(): number {
    return this.polls;
  }

  onApplicationBootstrap(): void {
    this.upstream.watchFeed('livescores-live', () => this.feed?.connected ?? false);
    this.upstream.watchFeed('livescores-catalog', () => this.polls > 0 && this.faultyPolls === 0);
    this.leadership.lead(FIXTURES_INGEST_LEASE, ['livescores-live', 'livescores-catalog'], {
      activate: () => this.activate(),
      deactivate: () => this.deactivate(),
    });
  }

  onApplicationShutdown(): void {
    this.deactivate();
  }

  /** Starts from what is stored, then from the provider: the live feed resends every live match on connect. */
  private async activate(): Promise<void> {
    const term = ++this.term;
    this.active = true;
    this.faultyPolls = 0;
    try {
      await this.registry.reload();
    } catch (error) {
      this.logger.warn(`Could not read the stored catalog yet: ${describeFault(error)}`);
    }
    if (term !== this.term) return;
    this.feed = new LiveFeed(this.client.liveUrl, {
      onConnected: () => this.live.resetSequences(),
      onEnvelope: (envelope) => this.live.receive(envelope),
    });
    this.feed.start();
    this.healthTimer = setInterval(() => {
      const healthy = this.feed?.healthy(Date.now()) ?? false;
      void this.events.emitEvent(Subjects.fixturesFeedHealth, { healthy });
    }, FEED_HEALTH_EVERY_MS);
    this.healthTimer.unref();
    void this.pollLoop(term);
  }

  /** Stops reading and forgets what the next holder will change, so a later term starts from storage. */
  private deactivate(): void {
    this.active = false;
    this.term++;
    clearTimeout(this.pollTimer);
    clearInterval(this.healthTimer);
    this.feed?.stop();
    this.feed = undefined;
    this.live.forget();
  }

  private async pollLoop(term: number): Promise<void> {
    if (term !== this.term) return;
    const started = performance.now();
    const { faults, changed } = await this.poller.pollOnce();
    this.upstream.recordPoll('livescores-catalog', (performance.now() - started) / 1000, faults.length === 0);
    // A notice ends every replica's cached pages and recorded replays: only for a poll that wrote.
    if (changed) this.changes.changed();
    this.faultyPolls = faults.length === 0 ? 0 : this.faultyPolls + 1;
    try {
      await this.registry.reload();
      this.live.applyHeld();
      this.kits.enqueue(await this.store.unresolvedKits());
    } catch (error) {
      this.faultyPolls = Math.max(this.faultyPolls, 1);
      this.logger.warn(`After the catalog poll: ${describeFault(error)}`);
    }
    this.polls++;
    if (term !== this.term) return;
    const interval = this.config.get('FIXTURES_CATALOG_POLL_MS', { infer: true });
    this.pollTimer = setTimeout(
      () => void this.pollLoop(term),
      CatalogPoller.nextDelay(interval, this.faultyPolls),
    );
    this.pollTimer.unref();
  }

  /** An api replica met teams without a kit; an ingest resolves them in the background. */
  onKitsWanted(event: unknown): void {
    if (!this.active) return;
    const teamIds = (event as { teamIds?: unknown } | null)?.teamIds;
    if (!Array.isArray(teamIds)) return;
    const ids = teamIds.filter((id): id is string => typeof id === 'string').slice(0, 1000);
    this.store.teamsByIds(ids).then(
      (teams) => this.kits.enqueue(teams),
      (error: unknown) => this.logger.warn(`Kits wanted: ${describeFault(error)}`),
    );
  }
}

import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { backoffDelay, type BackoffPolicy } from '@app/clock';
import { CatalogChangeNotifier } from './catalog-change-notifier';
import { CatalogStore } from './catalog-store';
import { describeFault, LivescoresClient } from './livescores-client';
import { parseKit } from '../upstream/livescores.parsers';

export interface KitRequest {
  readonly id: string;
  readonly provider_id: string;
}

/** Kit requests in flight at once: the endpoint is slow, and it is the provider's. */
const CONCURRENCY = 4;
/** A kit the provider does not know yet (404) or failed to give is asked for again, less and less often. */
const RETRY: BackoffPolicy = { initialMs: 1000, maxMs: 30_000, jitter: 0.5 };

/**
 * Resolves team kits in the background, never on a request's path: teams are
 * queued (once each) after catalog polls and when an api replica reports
 * unresolved teams; failures and 404s are retried with backoff.
 */
@Injectable()
export class KitResolver implements OnApplicationShutdown {
  private readonly logger = new Logger(KitResolver.name);
  private readonly queue: KitRequest[] = [];
  private readonly queued = new Set<string>();
  private readonly waiting = new Map<string, NodeJS.Timeout>();
  private readonly attempts = new Map<string, number>();
  private active = 0;
  private stopped = false;

  constructor(
    private readonly client: LivescoresClient,
    private readonly store: CatalogStore,
    private readonly changes: CatalogChangeNotifier,
  ) {}

  enqueue(teams: readonly KitRequest[]): void {
    if (this.stopped) return;
    for (const team of teams) {
      if (this.queued.has(team.id) || this.waiting.has(team.id)) continue;
      this.queued.add(team.id);
      this.queue.push(team);
    }
    this.pump();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.queue.length = 0;
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private pump(): void {
    while (!this.stopped && this.active < CONCURRENCY && this.queue.length > 0) {
      const team = this.queue.shift() as KitRequest;
      this.active++;
      void this.resolve(team).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  private async resolve(team: KitRequest): Promise<void> {
    try {
      const kit = await this.client.get(`/teams/${encodeURIComponent(team.provider_id)}/kit`, parseKit);
      if (kit) {
        await this.store.setKit(team.id, kit.url);
        this.changes.changed();
        this.queued.delete(team.id);
        this.attempts.delete(team.id);
        return;
      }
    } catch (error) {
      this.logger.warn(`Kit of team ${team.id}: ${describeFault(error)}`);
    }
    this.retryLater(team);
  }

  private retryLater(team: KitRequest): void {
    this.queued.delete(team.id);
    if (this.stopped) return;
    const attempt = this.attempts.get(team.id) ?? 0;
    this.attempts.set(team.id, attempt + 1);
    const timer = setTimeout(
      () => {
        this.waiting.delete(team.id);
        this.enqueue([team]);
      },
      backoffDelay(attempt, RETRY),
    );
    timer.unref();
    this.waiting.set(team.id, timer);
  }
}

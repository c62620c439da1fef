import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuthService } from '@app/auth';
import { Clock } from '@app/clock';
import { type ChangePosition, DynamicSubjects, type FeedHealthEvent, NatsLink } from '@app/messaging';
import { StreamServer } from '@app/streaming';
import type { FixturesEnv } from '../config/fixtures.env';
import { HeardLiveStates } from '../live/heard-live-states';
import { LiveMatchDirectory } from '../live/live-match-directory';
import { LiveChangeLog } from '../live/live-change-log';
import { heartbeatFrame, type LiveFrame } from './live-frames';
import { LiveSubscriptions } from './live-subscriptions';
import { payloadText } from './payload-text';

/** The ingest reports every second; three missed reports mean no ingest is reading the provider. */
const FEED_REPORT_STALE_MS = 3_000;

/**
 * The fan-out behind the live-score stream on api replicas: every change the
 * ingest publishes on NATS reaches this replica's subscribers of that match,
 * and a key that changes is checked again on every open socket.
 */
@Injectable()
export class LiveStreamService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveStreamService.name);
  readonly subscriptions: LiveSubscriptions;
  private readonly detach: (() => void)[] = [];
  private feedReport?: { healthy: boolean; at: number };
  private newest = 0;

  constructor(
    private readonly auth: AuthService,
    private readonly nats: NatsLink,
    private readonly server: StreamServer,
    private readonly heard: HeardLiveStates,
    directory: LiveMatchDirectory,
    private readonly log: LiveChangeLog,
    private readonly clock: Clock,
    config: ConfigService<FixturesEnv, true>,
  ) {
    this.subscriptions = new LiveSubscriptions(
      directory,
      (match, afterSeq) => log.replay(DynamicSubjects.fixturesLog(match.sportId, match.id), afterSeq),
      () => Date.now(),
      config.get('STREAM_MAX_SUBSCRIPTIONS', { infer: true }),
    );
  }

  onApplicationBootstrap(): void {
    this.detach.push(
      this.auth.onKeysChanged(() => void this.server.revalidate()),
      this.nats.onConnection(() => void this.readNewestSeq()),
      this.nats.onReconnect(() => {
        void this.readNewestSeq();
        this.subscriptions.resync().catch((error: unknown) => {
          this.logger.warn(`Resynchronising the stream after a NATS reconnect failed: ${String(error)}`);
        });
      }),
    );
  }

  onApplicationShutdown(): void {
    for (const detach of this.detach.splice(0)) detach();
  }

  /** A new state of a match, as the ingest published it on `fixtures.live.<sport>.<match>`. */
  onLiveChange(subject: string, data: Uint8Array, position: ChangePosition | null): void {
    const matchId = matchIdOf(subject);
    if (matchId === null) return;
    const text = payloadText(data);
    if (position && position.seq > this.newest) this.newest = position.seq;
    this.heard.heard(matchId, text, position);
    this.subscriptions.publish(matchId, text, position);
  }

  /** The ingest's latest word on the provider's live connection. */
  onFeedHealth(event: FeedHealthEvent): void {
    this.feedReport = { healthy: event.healthy === true, at: this.clock.now() };
  }

  /**
   * The heartbeat of the moment: the newest `seq` of the change log this
   * replica knows of (0 while the log is empty), and the feed healthy per the
   * ingest's last report, if that report is recent.
   */
  heartbeat(): LiveFrame {
    const now = this.clock.now();
    const healthy = !!this.feedReport?.healthy && now - this.feedReport.at <= FEED_REPORT_STALE_MS;
    return heartbeatFrame(now, this.newest, healthy);
  }

  private async readNewestSeq(): Promise<void> {
    try {
      this.newest = Math.max(this.newest, await this.log.lastSeq());
    } catch {
      // No log yet (no ingest has run) or NATS away: live changes raise it as they arrive.
    }
  }
}

/** `….live.<sport>.<match>` → the match id. */
function matchIdOf(subject: string): number | null {
  const id = Number(subject.slice(subject.lastIndexOf('.') + 1));
  return Number.isSafeInteger(id) ? id : null;
}

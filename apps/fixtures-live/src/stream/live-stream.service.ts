import type { IncomingMessage } from 'node:http';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { allOf, AuthService, type Principal, Scope, toErrorResponse } from '@app/auth';
import { DynamicSubjects, NatsClient } from '@app/messaging';
import { type HandshakeRejection, type StreamConnection, StreamServer } from '@app/streaming';
import { fixturesAuthDetail } from '../common/auth-messages';
import type { FixturesEnv } from '../config/fixtures.env';
import { HeardLiveStates } from '../live/heard-live-states';
import { LiveMatchDirectory } from '../live/live-match-directory';
import { conflateLiveFrames, type LiveFrameMeta } from './live-frames';
import { LiveSubscriptions, payloadText } from './live-subscriptions';

const STREAM_ACCESS = { scopeRules: [allOf(Scope.LiveScoresStatistics)] };

/**
 * The live-score stream at `{BASE_PATH}/stream` on api replicas: every change
 * the ingest publishes on NATS reaches this replica's subscribers of that match.
 */
@Injectable()
export class LiveStreamService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveStreamService.name);
  private readonly subscriptions: LiveSubscriptions;
  private readonly detach: (() => void)[] = [];

  constructor(
    private readonly config: ConfigService<FixturesEnv, true>,
    private readonly auth: AuthService,
    private readonly nats: NatsClient,
    private readonly server: StreamServer,
    private readonly heard: HeardLiveStates,
    directory: LiveMatchDirectory,
  ) {
    this.subscriptions = new LiveSubscriptions(directory);
  }

  onApplicationBootstrap(): void {
    if (this.config.get('ROLE', { infer: true }) === 'ingest') return;
    this.detach.push(
      this.auth.onKeysChanged(() => void this.server.revalidate()),
      this.nats.subscribeBytes(DynamicSubjects.fixturesLiveAll, (data, subject) => {
        const matchId = matchIdOf(subject);
        if (matchId === null) return;
        const text = payloadText(data);
        this.heard.heard(matchId, text);
        this.subscriptions.publish(matchId, text);
      }),
      this.nats.onReconnect(() => {
        this.subscriptions.resync().catch((error: unknown) => {
          this.logger.warn(`Resynchronising the stream after a NATS reconnect failed: ${String(error)}`);
        });
      }),
    );
    this.server.register<Principal, LiveFrameMeta>({
      path: `${this.config.get('BASE_PATH', { infer: true })}/stream`,
      authenticate: (request: IncomingMessage) => this.auth.authenticateUpgrade(request, STREAM_ACCESS),
      reject: (error: unknown) => this.reject(error),
      accept: (connection) => this.accept(connection),
      conflate: conflateLiveFrames,
      subscriptionCount: () => this.subscriptions.subscriptionCount,
    });
  }

  onApplicationShutdown(): void {
    for (const detach of this.detach.splice(0)) detach();
  }

  private accept(connection: StreamConnection<Principal, LiveFrameMeta>): void {
    connection.onMessage((text) => void this.subscriptions.receive(connection, text));
    connection.onClose(() => this.subscriptions.disconnect(connection));
  }

  private reject(error: unknown): HandshakeRejection {
    const { status, message } = toErrorResponse(error, fixturesAuthDetail, this.logger);
    return { status, body: { detail: message } };
  }
}

/** `fixtures.live.<sport>.<match>` → the match id. */
function matchIdOf(subject: string): number | null {
  const id = Number(subject.slice(subject.lastIndexOf('.') + 1));
  return Number.isSafeInteger(id) ? id : null;
}

import { Logger, UseFilters } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayDisconnect,
  type OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { allOf, API_KEY_HEADER, AuthService, type Principal, Scope, toErrorResponse } from '@app/auth';
import {
  frameValidationPipe,
  type GatewayStream,
  type HandshakeRejection,
  type StreamConnection,
  StreamExceptionFilter,
} from '@app/streaming';
import { fixturesAuthDetail } from '../common/auth-messages';
import type { FixturesEnv } from '../config/fixtures.env';
import { conflateLiveFrames, type LiveFrameMeta } from './live-frames';
import { LiveStreamService } from './live-stream.service';
import { MatchRequestDto, SubscribeRequestDto } from './match-request.dto';

const STREAM_ACCESS = { scopeRules: [allOf(Scope.LiveScoresStatistics)] };
const FRAME_VALIDATION = frameValidationPipe();

type LiveClient = StreamConnection<Principal, LiveFrameMeta>;

/**
 * The live-score stream at `{BASE_PATH}/stream` (the adapter adds the base
 * path) on api replicas: who may connect, and the client's subscribe and
 * unsubscribe frames. What a subscription receives is the service's.
 */
@WebSocketGateway({ path: '/stream' })
@UseFilters(StreamExceptionFilter)
export class LiveStreamGateway
  implements OnGatewayInit<GatewayStream<Principal, LiveFrameMeta>>, OnGatewayDisconnect
{
  private readonly logger = new Logger(LiveStreamGateway.name);

  constructor(
    private readonly auth: AuthService,
    private readonly live: LiveStreamService,
    private readonly config: ConfigService<FixturesEnv, true>,
  ) {}

  afterInit(stream: GatewayStream<Principal, LiveFrameMeta>): void {
    stream.serve({
      authenticate: (request) => this.auth.authenticateUpgrade(request, STREAM_ACCESS),
      keyHeaders: [API_KEY_HEADER],
      reject: (error) => this.reject(error),
      conflate: conflateLiveFrames,
      subscriptionCount: () => this.live.subscriptions.subscriptionCount,
      // No default period: fixtures-live sends heartbeats only to clients that ask with heartbeat_ms.
      heartbeat: { frame: () => this.live.heartbeat() },
      invalidParameter: (name) => `invalid parameter ${name}: expected an integer from 500 to 60000`,
      connectionLimit: {
        max: this.config.get('STREAM_MAX_CONNECTIONS_PER_KEY', { infer: true }),
        keyOf: (principal) => principal.keyId,
      },
    });
  }

  handleDisconnect(client: LiveClient): void {
    this.live.subscriptions.disconnect(client);
  }

  @SubscribeMessage('subscribe')
  subscribe(
    @ConnectedSocket() client: LiveClient,
    @MessageBody(FRAME_VALIDATION) request: SubscribeRequestDto,
  ): Promise<void> {
    return this.live.subscriptions.subscribe(client, request.match_id, {
      resumeAfter: request.resume_after,
      conflateMs: request.conflate_ms,
    });
  }

  @SubscribeMessage('unsubscribe')
  unsubscribe(
    @ConnectedSocket() client: LiveClient,
    @MessageBody(FRAME_VALIDATION) request: MatchRequestDto,
  ): void {
    this.live.subscriptions.unsubscribe(client, request.match_id);
  }

  private reject(error: unknown): HandshakeRejection {
    const { status, message } = toErrorResponse(error, fixturesAuthDetail, this.logger);
    return { status, body: { detail: message } };
  }
}

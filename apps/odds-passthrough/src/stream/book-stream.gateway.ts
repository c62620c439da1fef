import { Logger, type Type, UseFilters } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  type OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { allOf, API_KEY_HEADER, AuthService, type Principal, Scope, toErrorResponse } from '@app/auth';
import { Clock } from '@app/clock';
import {
  frameValidationPipe,
  type GatewayStream,
  type HandshakeRejection,
  type StreamConnection,
  StreamExceptionFilter,
} from '@app/streaming';
import type { BookConfig } from '../book/book-read-port';
import { oddsAuthError } from '../common/auth-messages';
import type { OddsEnv } from '../config/odds.env';
import { type BookFrameMeta, conflateBookFrames } from './book-frames';
import { AllMatchesRequestDto, MatchRequestDto, SubscribeRequestDto } from './book-request.dto';
import { BookStreamService } from './book-stream.service';
import type { FollowOptions } from './book-subscriptions';

const FRAME_VALIDATION = frameValidationPipe();

type BookClient = StreamConnection<Principal, BookFrameMeta>;

/**
 * One gateway class per configured book at `<prefix>/data`, built when the
 * module is (as the book controllers are): Nest takes a gateway's path from
 * its class decorator. The gateway decides who may connect and reads the
 * client's frames; the book's subscriptions decide what each client receives.
 */
export function createBookGateway(book: BookConfig): Type {
  const access = { scopeRules: [allOf(Scope.Odds)], sportsbook: book.grant };

  @WebSocketGateway({ path: `${book.prefix}/data` })
  @UseFilters(StreamExceptionFilter)
  class BookStreamGateway
    implements
      OnGatewayInit<GatewayStream<Principal, BookFrameMeta>>,
      OnGatewayConnection,
      OnGatewayDisconnect
  {
    private readonly logger = new Logger(`BookStreamGateway(${book.name})`);

    constructor(
      private readonly config: ConfigService<OddsEnv, true>,
      private readonly auth: AuthService,
      private readonly streams: BookStreamService,
      private readonly clock: Clock,
    ) {}

    private get subscriptions() {
      return this.streams.subscriptionsOf(book.name);
    }

    afterInit(stream: GatewayStream<Principal, BookFrameMeta>): void {
      stream.serve({
        authenticate: (request) => this.auth.authenticateUpgrade(request, access),
        keyHeaders: [API_KEY_HEADER],
        reject: (error) => this.reject(error),
        conflate: conflateBookFrames,
        subscriptionCount: () => this.subscriptions.subscriptionCount,
        heartbeat: {
          defaultMs: this.config.get('BOOK_HEARTBEAT_MS', { infer: true }),
          frame: () => this.subscriptions.heartbeat(this.clock.now()),
        },
        invalidParameter: (name) => `invalid parameter: ${name}`,
        // Counted over every book's stream together: the limit is per key per service.
        connectionLimit: {
          max: this.config.get('STREAM_MAX_CONNECTIONS_PER_KEY', { infer: true }),
          keyOf: (principal) => principal.keyId,
        },
      });
    }

    handleConnection(client: BookClient): void {
      this.subscriptions.connect(client);
    }

    handleDisconnect(client: BookClient): void {
      this.subscriptions.disconnect(client);
    }

    @SubscribeMessage('subscribe')
    async subscribe(
      @ConnectedSocket() client: BookClient,
      @MessageBody(FRAME_VALIDATION) request: SubscribeRequestDto,
    ): Promise<void> {
      await this.subscriptions.subscribe(client, request.match, follow(request));
    }

    @SubscribeMessage('unsubscribe')
    unsubscribe(
      @ConnectedSocket() client: BookClient,
      @MessageBody(FRAME_VALIDATION) request: MatchRequestDto,
    ): void {
      this.subscriptions.unsubscribe(client, request.match);
    }

    @SubscribeMessage('subscribe_all')
    async subscribeAll(
      @ConnectedSocket() client: BookClient,
      @MessageBody(FRAME_VALIDATION) request: AllMatchesRequestDto,
    ): Promise<void> {
      await this.subscriptions.subscribeAll(client, request.sport, follow(request));
    }

    private reject(error: unknown): HandshakeRejection {
      const { status, message } = toErrorResponse(error, oddsAuthError, this.logger);
      return { status, body: { error: message } };
    }
  }
  return BookStreamGateway;
}

function follow(request: SubscribeRequestDto | AllMatchesRequestDto): FollowOptions {
  return { resumeAfter: request.resume_after, conflateMs: request.conflate_ms };
}

import { type DynamicModule, Global, Module, type OnModuleInit, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Metrics } from '@app/observability';
import { NatsEventClient } from './nats-event.client';
import { NatsEventServer } from './nats-event.server';
import { NATS_OPTIONS, NatsLink, type NatsOptions, type NatsState, parseNatsServers } from './nats-link';

const NATS_STATES: readonly NatsState[] = ['connecting', 'connected', 'reconnecting', 'closed'];

export interface MessagingModuleOptions {
  /** Connection name, for example the app's name and role. */
  readonly name: string;
}

@Global()
@Module({})
export class MessagingModule implements OnModuleInit {
  constructor(
    private readonly nats: NatsLink,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  static forRoot(options: MessagingModuleOptions): DynamicModule {
    return {
      module: MessagingModule,
      providers: [
        {
          provide: NATS_OPTIONS,
          inject: [ConfigService],
          useFactory: (
            config: ConfigService<{ NATS_URL: string; NATS_SUBJECT_PREFIX: string }, true>,
          ): NatsOptions => ({
            servers: parseNatsServers(config.get('NATS_URL', { infer: true })),
            name: options.name,
            subjectPrefix: config.get('NATS_SUBJECT_PREFIX', { infer: true }),
          }),
        },
        NatsLink,
        NatsEventClient,
        {
          provide: NatsEventServer,
          inject: [NatsLink],
          useFactory: (link: NatsLink) => new NatsEventServer(link),
        },
      ],
      exports: [NatsLink, NatsEventClient, NatsEventServer],
    };
  }

  onModuleInit(): void {
    this.nats.start();
    this.metrics?.observe(
      'nats_connection_state',
      'NATS connection state of this process (1 for the current state)',
      () => NATS_STATES.map((state) => ({ labels: { state }, value: this.nats.state === state ? 1 : 0 })),
      ['state'],
    );
  }
}

import { type DynamicModule, Global, Module, type OnModuleInit, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Metrics } from '@app/observability';
import { NATS_OPTIONS, NatsClient, type NatsOptions, type NatsState, parseNatsServers } from './nats-client';

const NATS_STATES: readonly NatsState[] = ['connecting', 'connected', 'reconnecting', 'closed'];

export interface MessagingModuleOptions {
  /** Connection name, for example the app's name and role. */
  readonly name: string;
}

@Global()
@Module({})
export class MessagingModule implements OnModuleInit {
  constructor(
    private readonly nats: NatsClient,
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
        NatsClient,
      ],
      exports: [NatsClient],
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

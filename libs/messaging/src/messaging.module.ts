import { type DynamicModule, Global, Module, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NATS_OPTIONS, NatsClient, type NatsOptions, parseNatsServers } from './nats-client';

export interface MessagingModuleOptions {
  /** Connection name, for example the app's name and role. */
  readonly name: string;
}

@Global()
@Module({})
export class MessagingModule implements OnModuleInit {
  constructor(private readonly nats: NatsClient) {}

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
  }
}

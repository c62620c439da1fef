export * from './messaging.module';
export * from './nats-client';
export * from './reconnect-schedule';
export * from './subjects';

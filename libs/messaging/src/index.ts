export * from './change-log';
export * from './messaging.module';
export * from './nats-event.client';
export * from './nats-event.server';
export * from './nats-link';
export * from './reconnect-schedule';
export * from './subject-prefix';
export * from './subjects';

export * from './buffered-sender';
export * from './client-frame';
export * from './outgoing-queue';
export * from './stream-connection';
export * from './stream-server';
export * from './streaming.module';
export * from './stream-stats';

export * from './backoff';
export * from './clock';
export * from './clock.module';
export * from './deadline';
export * from './retry';
export * from './wakeable-pauses';

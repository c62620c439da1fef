export * from './backoff';
export * from './clock';
export * from './clock.module';

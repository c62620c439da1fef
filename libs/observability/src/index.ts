export * from './http-metrics.middleware';
export * from './logging.module';
export * from './metrics';
export * from './metrics.controller';
export * from './observability.module';
export * from './close-on-signal';
export * from './upstream-monitor';

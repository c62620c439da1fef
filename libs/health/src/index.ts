export * from './dependency-health';
export * from './dependency-health.module';
export * from './readiness';
export * from './database-ping';

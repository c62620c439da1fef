export * from './ingest-lease';
export * from './ingest-leadership';
export * from './lease-store';
export * from './leadership.module';

export * from './data-source-options';
export * from './database.module';
export * from './migrations';
export * from './open-data-source';
export * from './database-unavailable';

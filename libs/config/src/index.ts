export * from './common.env';
export * from './validate-env';
export * from './cli-logger';

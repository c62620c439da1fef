export * from './body-policy';
export * from './close-gently';
export * from './edge-answer';
export * from './http-edge';
export * from './parser-failure';
export * from './serve-as-request';
export * from './method-not-allowed';
export * from './http-pipeline';

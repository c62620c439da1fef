export * from './sportsbook.types';
export * from './sportsbook.parser';
export * from './json-in-parts';

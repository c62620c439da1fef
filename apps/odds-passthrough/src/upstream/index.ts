export * from './sportsbook.types';
export * from './sportsbook.parser';

export const Scope = {
  Fixtures: 'fixtures',
  LiveScores: 'live_scores',
  LiveScoresStatistics: 'live_scores_statistics',
  FinalScores: 'final_scores',
  Odds: 'odds',
} as const;

export type Scope = (typeof Scope)[keyof typeof Scope];

export const ALL_SCOPES: readonly Scope[] = Object.values(Scope);

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/**
 * Every NATS subject the platform uses and the payload it carries, in one
 * typed place. Publishers and subscribers go through `NatsClient`, which only
 * accepts subjects declared here.
 */
export interface KeysChangedEvent {
  /** What changed; subscribers currently drop every cached decision either way. */
  readonly change: 'account' | 'key';
  readonly accountId?: string;
  readonly keyId?: string;
  /** ISO time of the change, for logs and metrics. */
  readonly at: string;
}

/** An api replica met teams without a kit; the fixtures ingest resolves them in the background. */
export interface KitsWantedEvent {
  readonly teamIds: readonly string[];
}

/** The fixtures ingest changed catalog rows; api replicas drop their cached list answers. */
export interface CatalogChangedEvent {
  /** ISO time of the change, for logs. */
  readonly at: string;
}

export interface SubjectPayloads {
  'auth.keys.changed': KeysChangedEvent;
  'fixtures.kits.wanted': KitsWantedEvent;
  'fixtures.catalog.changed': CatalogChangedEvent;
}

export type Subject = keyof SubjectPayloads;

export const Subjects = {
  authKeysChanged: 'auth.keys.changed',
  fixturesKitsWanted: 'fixtures.kits.wanted',
  fixturesCatalogChanged: 'fixtures.catalog.changed',
} as const satisfies Record<string, Subject>;

/**
 * Dynamic subjects, published and subscribed as raw bytes (`publishBytes`,
 * `subscribeBytes`): their payload is already the JSON a stream frame carries,
 * so api replicas forward it without parsing it once per subscriber.
 */
export const DynamicSubjects = {
  /** Payload: the public live snapshot of the match, `match_id` included. */
  fixturesLive: (sportId: number, matchId: number): string => `fixtures.live.${sportId}.${matchId}`,
  fixturesLiveAll: 'fixtures.live.>',
  /** Payload: the `update` frame of the odds stream for that match. */
  oddsMatch: (book: string, sportId: number, matchId: number): string =>
    `odds.${book}.match.${sportId}.${matchId}`,
  oddsMatchAll: (book: string): string => `odds.${book}.match.>`,
  /** Payload: sports, leagues and match objects that changed in that book (odds-passthrough ADR 004). */
  oddsCatalog: (book: string): string => `odds.${book}.catalog`,
  /** Payload: the ingest's feed health for that book. */
  oddsHealth: (book: string): string => `odds.${book}.health`,
} as const;

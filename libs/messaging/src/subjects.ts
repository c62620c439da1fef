/**
 * Every NATS subject the platform uses and the payload it carries, in one
 * typed place: `@EventPattern` handlers and `NatsEventClient.emit` name them
 * from here.
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

/** The fixtures ingest's view of the provider's live connection, sent every second. */
export interface FeedHealthEvent {
  /** The connection is up and the provider was heard (a message or a pong) within the last 10 s. */
  readonly healthy: boolean;
}

/**
 * REST requests one replica admitted per key in the last ~100 ms, so the
 * other replicas of the same service take them from their buckets too.
 */
export interface RateUsedEvent {
  /** The service whose limit was spent (`fixtures-live`, `odds-passthrough`). */
  readonly service: string;
  /** The sending replica, which skips its own reports. */
  readonly replica: string;
  /** Key id → admitted requests and the limit the sender applied. */
  readonly used: Readonly<
    Record<string, { readonly n: number; readonly rps: number; readonly burst: number }>
  >;
}

export interface SubjectPayloads {
  'auth.keys.changed': KeysChangedEvent;
  'fixtures.kits.wanted': KitsWantedEvent;
  'fixtures.catalog.changed': CatalogChangedEvent;
  'fixtures.feed.health': FeedHealthEvent;
  'auth.rate.used': RateUsedEvent;
}

export type Subject = keyof SubjectPayloads;

export const Subjects = {
  authKeysChanged: 'auth.keys.changed',
  fixturesKitsWanted: 'fixtures.kits.wanted',
  fixturesCatalogChanged: 'fixtures.catalog.changed',
  fixturesFeedHealth: 'fixtures.feed.health',
  authRateUsed: 'auth.rate.used',
} as const satisfies Record<string, Subject>;

/** Subjects whose payload is JSON that handlers receive parsed; every other one carries frame bytes. */
export const JSON_SUBJECTS: ReadonlySet<string> = new Set<string>(Object.values(Subjects));

/**
 * Dynamic subjects, published and received as raw bytes: their payload is
 * already the JSON a stream frame carries, so api replicas forward it without
 * parsing it once per subscriber.
 */
export const DynamicSubjects = {
  /** Payload: the public live snapshot of the match, `match_id` included. */
  fixturesLive: (sportId: number, matchId: number): string => `fixtures.live.${sportId}.${matchId}`,
  fixturesLiveAll: 'fixtures.live.>',
  /**
   * The same payload, appended to the fixtures change log (JetStream) before
   * it goes out on `fixturesLive` with `Seq` and `Prev-Seq` headers.
   */
  fixturesLog: (sportId: number, matchId: number): string => `fixtures.log.${sportId}.${matchId}`,
  fixturesLogAll: 'fixtures.log.>',
  /**
   * Payload: match changes of that book, each an `update` frame of the odds
   * stream with the position its append to `oddsLog` gave it
   * (odds-passthrough's match-change-batch.ts).
   */
  oddsChanges: (book: string): string => `odds.${book}.changes`,
  /** Every book's match changes; the book is the subject's second token (`bookOfSubject`). */
  oddsChangesAny: 'odds.*.changes',
  /**
   * One match's `update` frames, appended to the book's change log
   * (JetStream) before they go out on `oddsChanges`.
   */
  oddsLog: (book: string, sportId: number, matchId: number): string =>
    `odds.${book}.log.${sportId}.${matchId}`,
  /** One book's whole change log, or one sport of it. */
  oddsLogOf: (book: string, sportId?: number): string =>
    sportId === undefined ? `odds.${book}.log.>` : `odds.${book}.log.${sportId}.*`,
  /** Payload: sports, leagues and match objects that changed in that book (odds-passthrough ADR 004). */
  oddsCatalog: (book: string): string => `odds.${book}.catalog`,
  oddsCatalogAny: 'odds.*.catalog',
  /** Payload: the ingest's feed health for that book. */
  oddsHealth: (book: string): string => `odds.${book}.health`,
  oddsHealthAny: 'odds.*.health',
} as const;

/** `odds.<book>.…` (without the deployment prefix) → the book. */
export function bookOfSubject(subject: string): string {
  return subject.split('.')[1] ?? '';
}

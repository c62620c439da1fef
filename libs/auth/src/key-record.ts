import type { RateLimit } from './rate-limit/token-bucket';
import type { Scope } from './scopes';

/** What the registry knows about one key, as read from the database. */
export interface KeyRecord {
  readonly keyId: string;
  readonly accountId: string;
  readonly scopes: readonly Scope[];
  readonly active: boolean;
  readonly expiresAt: Date | null;
  /** The account's enabled fixtures sports (fixtures sport ids). */
  readonly fixturesSports: readonly number[];
  /** Sportsbook grant name → allowed sportsbook sport ids. */
  readonly grants: Readonly<Record<string, readonly number[]>>;
  /** The key's own REST rate; null (or absent): the service defaults. */
  readonly rate?: RateLimit | null;
}

/**
 * An authenticated key as handlers see it. Built once per cached record, so
 * the per-request checks are set lookups.
 */
export class Principal {
  readonly keyId: string;
  readonly accountId: string;
  readonly active: boolean;
  readonly expiresAt: Date | null;
  /** The key's own REST rate, or null for the service defaults. */
  readonly rate: RateLimit | null;
  private readonly scopes: ReadonlySet<Scope>;
  private readonly fixturesSportSet: ReadonlySet<number>;
  private readonly grants: ReadonlyMap<string, ReadonlySet<number>>;

  constructor(record: KeyRecord) {
    this.keyId = record.keyId;
    this.accountId = record.accountId;
    this.active = record.active;
    this.expiresAt = record.expiresAt;
    this.rate = record.rate ?? null;
    this.scopes = new Set(record.scopes);
    this.fixturesSportSet = new Set(record.fixturesSports);
    this.grants = new Map(Object.entries(record.grants).map(([book, sports]) => [book, new Set(sports)]));
  }

  hasScope(scope: Scope): boolean {
    return this.scopes.has(scope);
  }

  /** Fixtures sport ids of the account, ascending. */
  get fixturesSports(): number[] {
    return [...this.fixturesSportSet].sort((a, b) => a - b);
  }

  canSeeFixturesSport(sportId: number): boolean {
    return this.fixturesSportSet.has(sportId);
  }

  hasSportsbook(book: string): boolean {
    return this.grants.has(book);
  }

  /** Sportsbook sport ids granted for `book`; empty when the book is not granted. */
  sportsbookSports(book: string): ReadonlySet<number> {
    return this.grants.get(book) ?? EMPTY;
  }

  canSeeSportsbookSport(book: string, sportId: number): boolean {
    return this.grants.get(book)?.has(sportId) ?? false;
  }
}

const EMPTY: ReadonlySet<number> = new Set();

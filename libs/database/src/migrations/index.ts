import { AuthRegistry1763712000000 } from './1763712000000-auth-registry';
import { FixturesCatalog1763800000000 } from './1763800000000-fixtures-catalog';
import { FixturesChangePositions1764000000000 } from './1764000000000-fixtures-change-positions';
import { OddsBook1763900000000 } from './1763900000000-odds-book';
import { OddsChangePositions1764100000000 } from './1764100000000-odds-change-positions';
import { KeyRateLimits1764200000000 } from './1764200000000-key-rate-limits';
import { OddsUnpublishedChanges1764300000000 } from './1764300000000-odds-unpublished-changes';

/** Every migration, in order. Listed explicitly because the apps are bundled. */
export const MIGRATIONS = [
  AuthRegistry1763712000000,
  FixturesCatalog1763800000000,
  OddsBook1763900000000,
  FixturesChangePositions1764000000000,
  OddsChangePositions1764100000000,
  KeyRateLimits1764200000000,
  OddsUnpublishedChanges1764300000000,
];

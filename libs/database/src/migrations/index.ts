import { AuthRegistry1763712000000 } from './1763712000000-auth-registry';
import { FixturesCatalog17638000000000 } from './17638000000000-fixtures-catalog';
import { OddsBook17639000000000 } from './17639000000000-odds-book';

/** Every migration, in order. Listed explicitly because the apps are bundled. */
export const MIGRATIONS = [AuthRegistry1763712000000, FixturesCatalog17638000000000, OddsBook17639000000000];

import { AuthRegistry1763712000000 } from './1763712000000-auth-registry';

/** Every migration, in order. Listed explicitly because the apps are bundled. */
export const MIGRATIONS = [AuthRegistry1763712000000];

import { serviceErrorFilter } from '@app/auth';
import { fixturesAuthDetail } from '../auth-messages';

/** Every fixtures-live error leaves as `{"detail": "..."}`. */
export const FixturesExceptionFilter = serviceErrorFilter({
  name: 'FixturesExceptionFilter',
  field: 'detail',
  wordAuthFailure: fixturesAuthDetail,
});

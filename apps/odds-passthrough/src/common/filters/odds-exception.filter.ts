import { serviceErrorFilter } from '@app/auth';
import { oddsAuthError } from '../auth-messages';

/** Every odds-passthrough error leaves as `{"error": "..."}`. */
export const OddsExceptionFilter = serviceErrorFilter({
  name: 'OddsExceptionFilter',
  field: 'error',
  wordAuthFailure: oddsAuthError,
});

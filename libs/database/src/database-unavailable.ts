/** The text both services answer (503) when a request needs PostgreSQL and it cannot be reached. */
export const DATABASE_UNAVAILABLE = 'database unavailable';

/** Node network errors that mean the server is not there (stopped, restarting, unreachable). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not accepting work: class 08
 * (connection exception) and the operator-intervention codes of a shutdown,
 * a crash restart and a server still starting.
 */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03']);

/** Messages node-postgres uses for a dropped or never-made connection, which carry no code. */
const CLIENT_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
  'Query read timeout',
];

/**
 * True when an error from a query means PostgreSQL is unreachable rather than
 * that the query or its data is wrong. TypeORM wraps driver errors
 * (`QueryFailedError.driverError`), so the chain of causes is followed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (NETWORK_CODES.has(code) || SERVER_STATES.has(code) || code.startsWith('08'))
    )
      return true;
    if (typeof message === 'string' && CLIENT_MESSAGES.some((text) => message.includes(text))) return true;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
  return false;
}

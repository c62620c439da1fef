/** The lease every fixtures-live ingest process competes for; its holder alone reads and publishes. */
export const FIXTURES_INGEST_LEASE = 'fixtures-live';

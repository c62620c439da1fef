import { waitFor } from '../../support/wait-for';
import type { StreamClient } from './stream-client';

/**
 * Subscribes `client` to a book match until its snapshot arrives: until the
 * ingest's first load lands, the match is unknown and answered with an error
 * frame, so the subscription is asked again.
 */
export async function untilMatchServed(
  client: StreamClient,
  match: number,
  timeoutMs = 20_000,
): Promise<void> {
  await waitFor(
    () => {
      if (client.frames.some((frame) => frame.type === 'snapshot' && frame.match_id === match)) return true;
      client.send({ action: 'subscribe', match });
      return false;
    },
    { timeoutMs, intervalMs: 250, what: 'the book to be ingested' },
  );
}

import { connect } from 'nats';
import { NATS_URL } from '../../support/test-env';
import { waitFor } from '../../support/wait-for';

/**
 * Waits until a run's change log (`<prefix>_<name>`) has dropped every change
 * up to `seq` by age, so a resume from before it can no longer be served.
 */
export async function untilLogDropped(prefix: string, name: string, seq: number): Promise<void> {
  const nats = await connect({ servers: NATS_URL });
  try {
    const manager = await nats.jetstreamManager();
    const stream = `${prefix}_${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
    await waitFor(async () => (await manager.streams.info(stream)).state.first_seq > seq, {
      timeoutMs: 15_000,
      what: 'the change log to drop the changes by age',
    });
  } finally {
    await nats.close();
  }
}

import { randomBytes } from 'node:crypto';
import { AckInbox } from '@app/messaging/ack-inbox';
import { connect, headers, type NatsConnection } from 'nats';
import { NATS_URL } from '../support/test-env';

/**
 * Acknowledgements on the real NATS: a publish nobody answers fails after its
 * timeout, one that is answered resolves, and one answer never settles
 * another publish.
 */
describe('AckInbox against the real NATS', () => {
  let connection: NatsConnection;
  const subject = `ack_inbox_${randomBytes(4).toString('hex')}`;
  /** Replies of the fake stream, by payload: what it should answer to each publish, or nothing. */
  const answers = new Map<string, string>();

  beforeAll(async () => {
    connection = await connect({ servers: NATS_URL });
    // Subscribed, so the server has a responder and sends no 503; it answers only what it is told to.
    connection.subscribe(`${subject}.>`, {
      callback: (error, message) => {
        const answer = answers.get(Buffer.from(message.data).toString());
        if (!error && answer !== undefined) message.respond(Buffer.from(answer));
      },
    });
    await connection.flush();
  });

  afterAll(() => connection.close());

  const meta = () => headers();

  it('fails a publish nobody acknowledges once its timeout has passed, and not before', async () => {
    const inbox = new AckInbox();
    const started = performance.now();
    const outcome = inbox.publish(connection, `${subject}.silent`, Buffer.from('silent'), meta(), 300);
    await expect(outcome).rejects.toThrow('no acknowledgement from JetStream within 300 ms (timeout)');
    // Node's timers count from the event loop's clock, which can lag the call by a few milliseconds.
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('resolves an acknowledged publish while one beside it times out', async () => {
    const inbox = new AckInbox();
    answers.set('stored', '{"stream":"LOG","seq":7}');
    const silent = inbox.publish(connection, `${subject}.a`, Buffer.from('silent'), meta(), 200);
    const stored = inbox.publish(connection, `${subject}.b`, Buffer.from('stored'), meta(), 5_000);
    await expect(stored).resolves.toEqual({ seq: 7, duplicate: false });
    await expect(silent).rejects.toThrow('(timeout)');
  });

  it('times out each of many publishes at its own deadline, also those made after others expired', async () => {
    const inbox = new AckInbox();
    const early = Array.from({ length: 50 }, () =>
      inbox.publish(connection, `${subject}.early`, Buffer.from('silent'), meta(), 150),
    );
    await expect(Promise.any(early)).rejects.toBeInstanceOf(AggregateError);
    const started = performance.now();
    const late = inbox.publish(connection, `${subject}.late`, Buffer.from('silent'), meta(), 250);
    await expect(late).rejects.toThrow('within 250 ms');
    expect(performance.now() - started).toBeGreaterThanOrEqual(230);
    answers.set('after', '{"stream":"LOG","seq":9,"duplicate":true}');
    await expect(
      inbox.publish(connection, `${subject}.after`, Buffer.from('after'), meta(), 1_000),
    ).resolves.toEqual({ seq: 9, duplicate: true });
  });
});

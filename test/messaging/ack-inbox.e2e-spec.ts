import { randomBytes } from 'node:crypto';
import { AckInbox } from '@app/messaging/ack-inbox';
import { connect, type NatsConnection } from 'nats';
import { NATS_URL } from '../support/test-env';

/**
 * Acknowledgements on the real NATS: a publish nobody answers fails after its
 * timeout, one that is answered resolves, one answer never settles another
 * publish, and the messages of one call arrive whole, with their headers.
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

  const HEADERS = 'NATS/1.0\r\nTest-Case: plain\r\n\r\n';
  /** One publish of `payload` to `${subject}.<leaf>`, its promise alone. */
  const publishOne = (inbox: AckInbox, leaf: string, payload: string, timeoutMs: number) =>
    inbox.publish(
      connection,
      [{ subject: `${subject}.${leaf}`, data: Buffer.from(payload), headers: HEADERS }],
      timeoutMs,
    )[0];

  it('fails a publish nobody acknowledges once its timeout has passed, and not before', async () => {
    const inbox = new AckInbox();
    const started = performance.now();
    const outcome = publishOne(inbox, 'silent', 'silent', 300);
    await expect(outcome).rejects.toThrow('no acknowledgement from JetStream within 300 ms (timeout)');
    // Node's timers count from the event loop's clock, which can lag the call by a few milliseconds.
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('resolves an acknowledged publish while one beside it times out', async () => {
    const inbox = new AckInbox();
    answers.set('stored', '{"stream":"LOG","seq":7}');
    const silent = publishOne(inbox, 'a', 'silent', 200);
    const stored = publishOne(inbox, 'b', 'stored', 5_000);
    await expect(stored).resolves.toEqual({ seq: 7, duplicate: false });
    await expect(silent).rejects.toThrow('(timeout)');
  });

  it('times out each of many publishes at its own deadline, also those made after others expired', async () => {
    const inbox = new AckInbox();
    const early = Array.from({ length: 50 }, () => publishOne(inbox, 'early', 'silent', 150));
    await expect(Promise.any(early)).rejects.toBeInstanceOf(AggregateError);
    const started = performance.now();
    const late = publishOne(inbox, 'late', 'silent', 250);
    await expect(late).rejects.toThrow('within 250 ms');
    expect(performance.now() - started).toBeGreaterThanOrEqual(230);
    answers.set('after', '{"stream":"LOG","seq":9,"duplicate":true}');
    await expect(publishOne(inbox, 'after', 'after', 1_000)).resolves.toEqual({ seq: 9, duplicate: true });
  });

  it('writes the messages of one call whole and in order, each answered on its own', async () => {
    const inbox = new AckInbox();
    const heard: { subject: string; data: string; headers: string[] }[] = [];
    const listener = connection.subscribe(`${subject}.batch.>`, {
      callback: (error, message) => {
        if (error) return;
        heard.push({
          subject: message.subject,
          data: Buffer.from(message.data).toString(),
          headers: [message.headers?.get('Test-Case') ?? '', message.headers?.get('Test-Index') ?? ''],
        });
      },
    });
    await connection.flush();
    const payloads = Array.from({ length: 40 }, (_, index) => `batch-${index}-${'é'.repeat(index)}`);
    payloads.forEach((payload, index) => {
      if (index % 3 !== 1) answers.set(payload, `{"stream":"LOG","seq":${100 + index}}`);
    });
    const acks = inbox.publish(
      connection,
      payloads.map((payload, index) => ({
        subject: `${subject}.batch.${index}`,
        data: Buffer.from(payload),
        headers: `NATS/1.0\r\nTest-Case: batch\r\nTest-Index: ${index}\r\n\r\n`,
      })),
      400,
    );
    const outcomes = await Promise.allSettled(acks);
    outcomes.forEach((outcome, index) => {
      if (index % 3 === 1) expect(outcome).toMatchObject({ status: 'rejected' });
      else expect(outcome).toEqual({ status: 'fulfilled', value: { seq: 100 + index, duplicate: false } });
    });
    expect(heard).toEqual(
      payloads.map((payload, index) => ({
        subject: `${subject}.batch.${index}`,
        data: payload,
        headers: ['batch', String(index)],
      })),
    );
    listener.unsubscribe();
  });

  it("refuses a message over the server's payload limit without dropping the others of its call", async () => {
    const inbox = new AckInbox();
    answers.set('small', '{"stream":"LOG","seq":3}');
    const limit = connection.info?.max_payload ?? 1024 * 1024;
    const [big, small] = inbox.publish(
      connection,
      [
        { subject: `${subject}.big`, data: Buffer.alloc(limit + 1), headers: HEADERS },
        { subject: `${subject}.small`, data: Buffer.from('small'), headers: HEADERS },
      ],
      2_000,
    );
    await expect(big).rejects.toThrow("over the server's limit");
    await expect(small).resolves.toEqual({ seq: 3, duplicate: false });
  });

  it('asks a reply for the last message only when acknowledging the last, and writes all of them', async () => {
    const inbox = new AckInbox();
    const heard: { data: string; reply: string | undefined }[] = [];
    const listener = connection.subscribe(`${subject}.chain.>`, {
      callback: (error, message) => {
        if (!error) heard.push({ data: Buffer.from(message.data).toString(), reply: message.reply });
      },
    });
    await connection.flush();
    const payloads = Array.from({ length: 5 }, (_, index) => `chain-${index}`);
    answers.set('chain-4', '{"stream":"LOG","seq":44}');
    const last = inbox.publishAckingLast(
      connection,
      payloads.map((payload, index) => ({
        subject: `${subject}.chain.${index}`,
        data: Buffer.from(payload),
        headers: HEADERS,
      })),
      2_000,
    );
    await expect(last).resolves.toEqual({ seq: 44, duplicate: false });
    expect(heard.map(({ data }) => data)).toEqual(payloads);
    expect(heard.map(({ reply }) => reply !== undefined && reply !== '')).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
    listener.unsubscribe();
  });

  it("writes nothing of a call acknowledging the last when one message is over the server's limit", async () => {
    const inbox = new AckInbox();
    let heard = 0;
    const listener = connection.subscribe(`${subject}.whole.>`, { callback: () => heard++ });
    await connection.flush();
    const limit = connection.info?.max_payload ?? 1024 * 1024;
    const last = inbox.publishAckingLast(
      connection,
      [
        { subject: `${subject}.whole.big`, data: Buffer.alloc(limit + 1), headers: HEADERS },
        { subject: `${subject}.whole.small`, data: Buffer.from('small'), headers: HEADERS },
      ],
      2_000,
    );
    await expect(last).rejects.toThrow("over the server's limit");
    await connection.flush();
    expect(heard).toBe(0);
    listener.unsubscribe();
  });

  it('refuses every publish on a closed connection at once', async () => {
    const closed = await connect({ servers: NATS_URL });
    await closed.close();
    const acks = new AckInbox().publish(
      closed,
      [{ subject: `${subject}.closed`, data: Buffer.from('x'), headers: HEADERS }],
      5_000,
    );
    await expect(acks[0]).rejects.toThrow('the NATS connection is closed');
  });
});

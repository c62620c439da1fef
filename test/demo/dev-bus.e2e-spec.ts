import { NatsLink, qualifySubject, unqualifySubject } from '@app/messaging';
import { waitFor } from '../support/wait-for';

// The launcher's fallback bus is plain JavaScript; its module has no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DevBus, subjectMatches } = require('../../scripts/demo/dev-bus') as {
  DevBus: new () => { listen(port?: number): Promise<number>; close(): Promise<void> };
  subjectMatches: (pattern: string, subject: string) => boolean;
};

/**
 * The demo's last-resort bus must carry what the services send over NATS,
 * to the services' own client, wildcards and prefixes included.
 */
describe('the demo development bus', () => {
  it('matches subjects like NATS does', () => {
    expect(subjectMatches('odds.book.match.>', 'odds.book.match.29.7')).toBe(true);
    expect(subjectMatches('odds.book.match.>', 'odds.book.match')).toBe(false);
    expect(subjectMatches('fixtures.*.changed', 'fixtures.catalog.changed')).toBe(true);
    expect(subjectMatches('fixtures.*', 'fixtures.catalog.changed')).toBe(false);
    expect(subjectMatches('auth.keys.changed', 'auth.keys.changed')).toBe(true);
  });

  it('carries messages between two service clients', async () => {
    const bus = new DevBus();
    const port = await bus.listen();
    const options = { servers: [`127.0.0.1:${port}`], subjectPrefix: 'demo' };
    const publisher = new NatsLink({ ...options, name: 'publisher' });
    const subscriber = new NatsLink({ ...options, name: 'subscriber' });
    const received: string[] = [];
    try {
      subscriber.onConnection((connection) =>
        connection.subscribe(qualifySubject('demo', 'odds.book.match.>'), {
          callback: (_error, message) =>
            received.push(
              `${unqualifySubject('demo', message.subject)} ${Buffer.from(message.data).toString()}`,
            ),
        }),
      );
      publisher.start();
      expect(await publisher.waitUntilConnected(5000)).toBe(true);
      expect(await subscriber.waitUntilConnected(5000)).toBe(true);
      await waitFor(
        () => {
          publisher.publish('odds.book.match.29.7', Buffer.from('{"type":"update"}'));
          return received.length > 0;
        },
        { timeoutMs: 5000, intervalMs: 100, what: 'a message through the bus' },
      );
      expect(received[0]).toBe('odds.book.match.29.7 {"type":"update"}');
    } finally {
      await publisher.onApplicationShutdown();
      await subscriber.onApplicationShutdown();
      await bus.close();
    }
  });
});

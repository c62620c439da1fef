import type { Clock } from '@app/clock';
import type { NatsLink } from '@app/messaging';
import { serializeUpdateFrame } from './book-messages';
import type { BookRepository, StoredBook } from './book.repository';
import type { BookSources } from './book-sources';
import type { Selection } from './domain/selection';
import { batchPayloads } from './match-change-batch';
import { ReplicaBookService } from './replica-book.service';
import { waitFor } from '../../../../test/support/wait-for';
import { aSelection } from '../../../../test/odds-passthrough/selection-factory';

const EMPTY: StoredBook = { sports: [], leagues: [], matches: [], markets: [] };

function selection(matchId: number): Selection {
  return aSelection({ market_key: `s;0;m;${matchId}`, bet_name: 'Arsenal' });
}

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('ReplicaBookService', () => {
  let service: ReplicaBookService;

  beforeEach(async () => {
    const sources = [{ name: 'book' }] as unknown as BookSources;
    const repository = { load: () => Promise.resolve(EMPTY) } as unknown as BookRepository;
    const nats = {
      onSubscribed: () => () => undefined,
      onReconnect: () => () => undefined,
    } as unknown as NatsLink;
    const clock = { now: () => Date.now() } as Clock;
    service = new ReplicaBookService(sources, { enabled: true, pollMs: 1000 }, repository, nats, clock);
    await service.onModuleInit();
  });

  afterEach(() => service.onApplicationShutdown());

  /**
   * A message carries many changes, and each fans out to every subscriber:
   * applied in one go, a message held the event loop long enough for the
   * ingest's lease to go unrenewed (the odds fan-out bench, 1,000 sockets).
   */
  it('applies a message of changes over several turns, in order, letting timers run between them', async () => {
    const changes = Array.from({ length: 32 }, (_, index) => {
      const text = serializeUpdateFrame(index + 1, 29, 1_700_000_000_000, [selection(index + 1)], []);
      return { position: { seq: index + 1, prevSeq: null }, text, bytes: Buffer.from(text) };
    });
    const [batch] = batchPayloads(changes);
    const applied: number[] = [];
    service.onChange((change) => {
      busyFor(5);
      applied.push(change.matchId);
    });

    let appliedWhenTimerRan: number | undefined;
    service.onMatchChanges('book', Buffer.from(batch.bytes));
    setTimeout(() => (appliedWhenTimerRan = applied.length), 0);

    await waitFor(() => applied.length === changes.length, { timeoutMs: 5_000, what: 'every change' });
    await waitFor(() => appliedWhenTimerRan !== undefined, { timeoutMs: 1_000, what: 'the timer' });
    expect(applied).toEqual(changes.map((_, index) => index + 1));
    expect(appliedWhenTimerRan).toBeLessThan(changes.length);
  });
});

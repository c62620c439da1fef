/*
 * What a large load leaves on the heap. Reading, resolving and publishing a
 * book of 100,000 markets allocates several times what the book keeps, and
 * V8 holds those pages until its memory reducer sees the process go quiet,
 * tens of seconds later: until then RSS reads as the load's peak, not as the
 * book. Once a load is applied, a few full collections give them back.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = () => void;

/**
 * Full collections after a load. The first frees the load's garbage; each
 * further one compacts some more of the pages it left part-filled (V8 moves
 * a bounded amount per collection), so three, as V8's own memory reducer
 * runs, give back most of it: on a restarted 100,000-market book, RSS about
 * 550 MB after one and about 410 MB after three.
 */
const ROUNDS = 3;

/**
 * Markets below which a load is not worth a collection. A collection costs
 * what the whole heap holds, not what the load left: a small book reloaded
 * after a fault, in a process holding a large one, would pay for the large
 * one each time. From this size on, the load's own CPU (about a second)
 * dwarfs the pauses.
 */
export const LARGE_LOAD_MARKETS = 20_000;

/**
 * V8's own `gc`, exposed for this process without a command-line flag (the
 * services start as `node dist/apps/.../main.js`): a context created after
 * the flag is set carries it as a global. A Node that does not expose it so
 * gets no collections rather than a failing process: V8's memory reducer
 * still gives the pages back, later.
 */
export function v8Collect(): Collect {
  try {
    setFlagsFromString('--expose-gc');
    const collect: unknown = runInNewContext('gc');
    if (typeof collect === 'function') return collect as Collect;
  } catch {
    // `gc` is not defined in the new context.
  }
  return () => undefined;
}

/**
 * Collections on turns of their own after a large load, so timers and I/O
 * run in between: each pauses the event loop, about a quarter of a second for a
 * 100,000-market book on a slow core, and a load takes seconds of CPU, so
 * they stay a small part of it however often loads repeat. Loads that end
 * while collections are due share them; a load that ends during them starts
 * the rounds again, since it left garbage of its own.
 */
export class LoadGarbage {
  private collect?: Collect;
  private roundsLeft = 0;

  constructor(private readonly makeCollect: () => Collect = v8Collect) {}

  /** A load of `markets` markets was applied: when large, collect what it left once the current turn ends. */
  release(markets: number): void {
    if (markets < LARGE_LOAD_MARKETS) return;
    const scheduled = this.roundsLeft > 0;
    this.roundsLeft = ROUNDS;
    if (!scheduled) this.nextRound();
  }

  private nextRound(): void {
    // The second hop lets due timers (lease renewals among them) and I/O run before the pause.
    setImmediate(() =>
      setImmediate(() => {
        this.collect ??= this.makeCollect();
        this.collect();
        if (--this.roundsLeft > 0) this.nextRound();
      }).unref(),
    ).unref();
  }
}

/** The process's one collector of load garbage. */
export const loadGarbage = new LoadGarbage();

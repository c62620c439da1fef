/*
 * What a large load leaves on the heap. Reading, resolving and publishing a
 * book of 100,000 markets allocates several times what the book keeps, and
 * V8 holds those pages until its memory reducer sees the process go quiet,
 * tens of seconds later: until then RSS reads as the load's peak, not as the
 * book. Once a load is applied, one full collection gives them back.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = () => void;

/**
 * V8's own `gc`, exposed for this process without a command-line flag (the
 * services start as `node dist/apps/.../main.js`): a context created after
 * the flag is set carries it as a global.
 */
function v8Collect(): Collect {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collect;
}

/**
 * One full collection on the next turn for any number of loads that end in
 * the same turn (every book of a replica, every sport of an ingest). A
 * collection of a 100,000-market book pauses the event loop for about a
 * tenth of a second, once per load; a load takes seconds of CPU, so this
 * stays a small part of it however often loads repeat.
 */
export class LoadGarbage {
  private collect?: Collect;
  private pending = false;

  constructor(private readonly makeCollect: () => Collect = v8Collect) {}

  /** A load was applied: collect what it left once the current turn ends. */
  release(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.collect ??= this.makeCollect();
      this.collect();
    }).unref();
  }
}

/** The process's one collector of load garbage. */
export const loadGarbage = new LoadGarbage();

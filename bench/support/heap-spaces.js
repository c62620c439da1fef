// Preloaded into a server (`BENCH_PRODUCT_NODE_ARGS="--require $PWD/bench/support/heap-spaces.js"`),
// appends one line a second to HEAP_SPACES_DIR/heap-spaces-<pid>.log (default /tmp): the used MB of
// each V8 heap space, external and ArrayBuffer memory, RSS, and the collections of that second by
// kind with their pause. A sampling heap profile cannot show what is promoted and dies in the old
// space; this shows how fast the old space grows and when it is given back.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { constants } = require('node:perf_hooks');
const v8 = require('node:v8');

const file = path.join(process.env.HEAP_SPACES_DIR ?? '/tmp', `heap-spaces-${process.pid}.log`);
const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'markCompact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakCallbacks',
};
const started = performance.now();
let collections = {};

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = GC_KINDS[entry.detail?.kind] ?? String(entry.detail?.kind);
    const seen = (collections[kind] ??= { count: 0, ms: 0 });
    seen.count += 1;
    seen.ms += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

const mb = (bytes) => (bytes / 1e6).toFixed(1);

setInterval(() => {
  const spaces = v8
    .getHeapSpaceStatistics()
    .filter((space) => space.space_used_size > 0)
    .map((space) => `${space.space_name.replace(/_space$/, '')}=${mb(space.space_used_size)}`);
  const memory = process.memoryUsage();
  const gcs = Object.entries(collections).map(
    ([kind, { count, ms }]) => `${kind}=${count}/${ms.toFixed(0)}ms`,
  );
  const second = ((performance.now() - started) / 1000).toFixed(0);
  const line = [
    second,
    ...spaces,
    `external=${mb(memory.external)}`,
    `arrayBuffers=${mb(memory.arrayBuffers)}`,
  ];
  fs.appendFileSync(file, `${[...line, `rss=${mb(memory.rss)}`, ...gcs].join(' ')}\n`);
  collections = {};
}, 1000).unref();

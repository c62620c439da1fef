// The two sides of a stream workload: the product and its bare baseline, measured one after the
// other against the same load process (fake provider and clients) and the same database.
'use strict';
const { cpuMs } = require('./bench-env');
const { startLoadProcess } = require('./load-process');
const { watchMachineLoad } = require('./machine-load');
const { withDatabase } = require('./services');

/** Runs `fn(gen, db)` with a new database and the load process of `workloadModule`. */
function withLoadProcess(workloadModule, prefix, fn) {
  return withDatabase(prefix, async (db) => {
    const gen = startLoadProcess(workloadModule);
    try {
      return await fn(gen, db);
    } finally {
      await gen.stop();
    }
  });
}

/**
 * Measures `side(server)` on the product, then on the baseline; `startBaseline` gets what the
 * product side measured (to send as many bytes per frame, for one). Servers: `{ pid, url, stop }`.
 */
async function productThenBaseline(startProduct, startBaseline, side) {
  const product = await startProduct();
  let productResult;
  try {
    productResult = await side(product);
  } finally {
    await product.stop();
  }
  const baseline = await startBaseline(productResult);
  try {
    return { product: productResult, baseline: await side(baseline) };
  } finally {
    await baseline.stop();
  }
}

/**
 * `reps` windows of the load process's `drive(args)`, each with the server's CPU time over it,
 * per frame delivered (`delivered` of the drive's answer), and the machine's other load.
 */
async function cpuWindows(gen, pid, reps, args) {
  const windows = [];
  for (let r = 0; r < reps; r++) {
    const watch = watchMachineLoad();
    const before = cpuMs(pid);
    const received = await gen.call('drive', args);
    const cpu = cpuMs(pid) - before;
    windows.push({
      ...received,
      cpuMs: cpu,
      cpuUsPerFrame: (cpu * 1000) / received.delivered,
      load: watch.stop(),
    });
  }
  return windows;
}

module.exports = { withLoadProcess, productThenBaseline, cpuWindows };

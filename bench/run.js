// `npm run bench [-- --quick] [-- --only=name,name] [-- --big-book-starts=N]`: every workload, the product and its bare
// baseline in the same run, one table, the figures as JSON in bench/results/; the probes of
// bench/probes/ when named in `--only` (`probes`: all of them). See README.md.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execSync } = require('node:child_process');
const { pinning, pinSelfToLoadCore } = require('./support/cores');
const { judge, table } = require('./support/figures');
const { ensureBuilt, takeLeaseLosses } = require('./support/services');
const { PROBES, runProbeRows } = require('./workloads/probes');

/** In the order they run; `live` is the live fan-out (ROLE=all and an api replica) and the idle-socket memory. */
const WORKLOADS = {
  live: () => require('./workloads/live-fanout').runLive({ quick }),
  rest: () => require('./workloads/rest').runRest({ quick }),
  odds: () => require('./workloads/odds-fanout').runOddsFanOut({ quick }),
  'big-book': () => require('./workloads/big-book').runBigBook({ quick, starts: bigBookStarts }),
};

const args = process.argv.slice(2);
const quick = args.includes('--quick');
/** Server starts of the big book (1 quick, 3 full by default); from the second on, restarts with the book stored. */
const bigBookStarts = Number(
  args.find((arg) => arg.startsWith('--big-book-starts='))?.slice('--big-book-starts='.length) ?? NaN,
);
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

/** The workloads of this run, then the probes it names: a probe runs only when asked for. */
function selected() {
  const chosen = Object.entries(WORKLOADS).filter(([name]) => !only || only.includes(name));
  for (const name of Object.keys(PROBES)) {
    if (only?.includes(name) || only?.includes('probes'))
      chosen.push([name, () => runProbeRows(name, { quick })]);
  }
  return chosen;
}

async function main() {
  const started = new Date();
  // Read before pinning: a pinned process sees only its own core.
  const cores = os.availableParallelism();
  pinSelfToLoadCore();
  const known = new Set([...Object.keys(WORKLOADS), ...Object.keys(PROBES), 'probes']);
  const unknown = (only ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`--only names no workload or probe: ${unknown.join(', ')}`);
  ensureBuilt(['fixtures-live', 'odds-passthrough']);
  const rows = [];
  const failures = [];
  const leaseLosses = {};
  for (const [name, run] of selected()) {
    const at = performance.now();
    process.stderr.write(`bench: ${name}...\n`);
    try {
      for (const row of await run()) rows.push(judge({ name, ...row }));
    } catch (error) {
      failures.push({ name, error: error.stack ?? String(error) });
      process.stderr.write(`bench: ${name} failed: ${error.stack ?? error}\n`);
    }
    const lost = takeLeaseLosses();
    if (lost.length > 0) leaseLosses[name] = lost;
    process.stderr.write(`bench: ${name} took ${Math.round((performance.now() - at) / 1000)} s\n`);
  }
  const result = {
    started: started.toISOString(),
    seconds: Math.round((Date.now() - started.getTime()) / 1000),
    mode: quick ? 'quick' : 'full',
    commit: execSync('git rev-parse --short HEAD').toString().trim(),
    machine: { cores, pinning, node: process.version, loadAverage: os.loadavg() },
    rows,
    failures,
    leaseLosses,
  };
  const folder = path.join(__dirname, 'results');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(table(rows));
  console.log(
    `\n${result.mode} run, ${result.seconds} s, ${pinning ? 'server on core 1, load on core 0' : 'not pinned'}; ` +
      `other load = CPU of processes outside this run (PostgreSQL and NATS included), in cores, and the load average.\n` +
      `figures: ${path.relative(process.cwd(), file)}`,
  );
  for (const failure of failures) console.log(`${failure.name}: did not run to the end (see the JSON)`);
  for (const [name, lost] of Object.entries(leaseLosses)) {
    const reasons = [...new Set(lost.map((loss) => loss.reason))].join('; ');
    console.log(
      `${name}: an ingest went standby ${lost.length} time(s) (${reasons}); its figures include the pause`,
    );
  }
  process.exitCode = failures.length > 0 || rows.some((row) => row.verdict === 'FAIL') ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

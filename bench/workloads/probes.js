// The probes: scripts of bench/probes/ that each measure one part of a service in isolation (the
// odds diff engine, its PostgreSQL writes, a change-log append, a live write statement, the
// fixtures ingest's heap, the fixtures-live memory budget over minutes), run by the runner like
// the workloads so there is one way to run every benchmark. They have no bare baseline: each row
// is the probe's own figure, with the probe's goal where it has one. In-process probes run on
// the server core; the memory budget starts a service of its own and runs on every core.
'use strict';
const os = require('node:os');
const path = require('node:path');
const { spawnOn, SERVER_CORE } = require('../support/cores');
const { watchMachineLoad } = require('../support/machine-load');
const { readFigures } = require('../support/probe-figures');

const ALL_CORES = `0-${os.availableParallelism() - 1}`;

/** Each probe's script, its arguments in full and in quick mode, Node options and settings it needs. */
const PROBES = {
  'odds-poll': { script: 'odds-poll.js', full: ['100000', '5'], quick: ['100000', '3'] },
  'odds-persist': { script: 'odds-persist.js', full: ['100000', '5'], quick: ['100000', '2'] },
  'append-cost': { script: 'change-log-append-cost.js', full: ['100', '100'], quick: ['30', '20'] },
  'write-cost': { script: 'write-statement-cost.js', full: ['500'], quick: ['100'] },
  'ingest-memory': {
    script: 'fixtures-ingest-memory.js',
    full: ['600'],
    quick: ['60'],
    nodeArgs: ['--expose-gc'],
  },
  'fixtures-memory': {
    script: 'fixtures-memory.js',
    full: ['600'],
    quick: ['60'],
    quickEnv: { WARMUP: '20' },
    core: ALL_CORES,
  },
};

/**
 * Runs one probe; resolves with its figures, or rejects when it reports none (it failed before
 * its end). A probe that judges its own figures may exit non-zero after reporting them: its
 * rows' goals carry that verdict.
 */
function runProbe(name, { quick }) {
  const probe = PROBES[name];
  const child = spawnOn(
    probe.core ?? SERVER_CORE,
    process.execPath,
    [
      ...(probe.nodeArgs ?? []),
      path.join(__dirname, '..', 'probes', probe.script),
      ...probe[quick ? 'quick' : 'full'],
    ],
    {
      cwd: path.join(__dirname, '..', '..'),
      env: { ...process.env, ...(quick ? probe.quickEnv : {}) },
      stdio: ['ignore', 'pipe', 2],
    },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    stdout += text;
    process.stderr.write(text);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const figures = readFigures(stdout);
      if (figures === undefined)
        reject(new Error(`probe ${name} reported no figures (exit ${signal ?? code})`));
      else resolve(figures);
    });
  });
}

/** The rows of one probe: its figures, judged on their own goal or reported for information. */
async function runProbeRows(name, { quick }) {
  const watch = watchMachineLoad();
  const figures = await runProbe(name, { quick });
  const load = watch.stop();
  return figures.map(({ figure, unit, samples, goal }) => ({
    workload: `probe ${name}`,
    figure,
    unit,
    product: samples,
    baseline: [],
    goal: goal ? { kind: 'absolute', ...goal } : { kind: 'info' },
    load: [load],
  }));
}

module.exports = { PROBES, runProbeRows };

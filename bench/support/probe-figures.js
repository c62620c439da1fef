// How a probe (bench/probes/*.js) hands its figures to the runner: one line on stdout, after
// whatever it prints for a reader, that `bench/workloads/probes.js` reads back. A probe measures
// one part of a service in isolation, so it has no bare baseline; a figure may carry an absolute
// goal of its own (the memory budget's flatness), else it is reported for information.
'use strict';

const MARK = 'bench-probe-figures ';

/**
 * Prints the probe's figures: `[{ figure, unit, samples: number[], goal?: { op, value } }]`.
 */
function reportFigures(figures) {
  for (const { figure, samples } of figures) {
    if (!samples.length || !samples.every(Number.isFinite)) throw new Error(`no samples for ${figure}`);
  }
  console.log(`${MARK}${JSON.stringify(figures)}`);
}

/** The figures a probe printed, or undefined when it printed none. */
function readFigures(stdout) {
  const line = stdout.split('\n').find((text) => text.startsWith(MARK));
  return line === undefined ? undefined : JSON.parse(line.slice(MARK.length));
}

module.exports = { reportFigures, readFigures };

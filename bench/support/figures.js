// What the runner makes of a workload's samples: medians, the spread it measured, the ratio to
// the baseline with the range the spread allows, and a verdict; and the table it prints.
//
// Noise: every figure is measured in several windows (or steps) per side. The ratio is that of
// the medians; its range runs from the most favourable to the least favourable pairing of the
// extremes (min/max and max/min). A goal is PASS when the median ratio meets it, "noise" when the
// median misses it but the range still reaches it (the run cannot tell), and FAIL when even the
// most favourable pairing misses it: only FAIL makes the run exit non-zero. Absolute goals
// (latency) use the product's own median and extremes the same way. A probe's figure without a
// goal of its own is reported as `info`.
'use strict';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Spread of `values`: (max − min) / median, as a share. */
function spread(values) {
  const m = median(values);
  return m ? (Math.max(...values) - Math.min(...values)) / Math.abs(m) : 0;
}

const meets = (value, { op, value: goal }) => (op === '<=' ? value <= goal : value >= goal);

/** Adds medians, spreads, ratio, its range and the verdict to a workload's row. */
function judge(row) {
  const product = median(row.product);
  const baseline = row.baseline?.length ? median(row.baseline) : null;
  const { goal } = row;
  let figure;
  let best;
  let ratio = null;
  let ratioRange = null;
  if (goal.kind === 'ratio') {
    ratio = product / baseline;
    const low = Math.min(...row.product) / Math.max(...row.baseline);
    const high = Math.max(...row.product) / Math.min(...row.baseline);
    ratioRange = [low, high];
    figure = ratio;
    best = goal.op === '<=' ? low : high;
  } else if (goal.kind === 'info') {
    figure = product;
  } else {
    if (baseline !== null) ratio = product / baseline;
    figure = product;
    best = goal.op === '<=' ? Math.min(...row.product) : Math.max(...row.product);
  }
  let verdict =
    goal.kind === 'info' ? 'info' : meets(figure, goal) ? 'PASS' : meets(best, goal) ? 'noise' : 'FAIL';
  // CPU is read in 10 ms ticks: a baseline that used less than one in its windows has no ratio.
  if (goal.kind === 'ratio' && !(baseline > 0))
    [ratio, ratioRange, verdict] = [null, null, 'baseline below a tick'];
  // The product's samples are lower bounds (it timed out): a pass is not shown, a fail is.
  if (row.productLowerBound && verdict !== 'FAIL') verdict = 'timed out';
  const loads = (row.load ?? []).filter(Boolean);
  return {
    ...row,
    medians: { product, baseline },
    spreads: { product: spread(row.product), baseline: row.baseline?.length ? spread(row.baseline) : null },
    ratio,
    ratioRange,
    verdict,
    otherLoad: loads.length
      ? {
          otherCores: Math.max(...loads.map((l) => l.otherCores)),
          loadAverage: Math.max(...loads.map((l) => l.loadAverage)),
        }
      : null,
  };
}

const round = (value) =>
  value === null || value === undefined
    ? '–'
    : Math.abs(value) >= 100
      ? value.toFixed(0)
      : value.toPrecision(3);
const withSpread = (value, share, unit) =>
  value === null ? '–' : `${round(value)} ${unit}${share ? ` ±${Math.round((share * 100) / 2)}%` : ''}`;

/** The one table of a run, as text. */
function table(rows) {
  const header = ['workload', 'figure', 'product', 'baseline', 'ratio', 'goal', 'verdict', 'other load'];
  const lines = rows.map((row) => [
    row.workload,
    row.figure,
    withSpread(row.medians.product, row.spreads.product, row.unit),
    withSpread(row.medians.baseline, row.spreads.baseline, row.unit),
    row.ratio === null
      ? '–'
      : `${round(row.ratio)}×${row.ratioRange ? ` (${round(row.ratioRange[0])}–${round(row.ratioRange[1])})` : ''}`,
    row.goal.kind === 'info'
      ? '–'
      : row.goal.kind === 'ratio'
        ? `${row.goal.op} ${row.goal.value}×`
        : `${row.goal.op} ${row.goal.value} ${row.unit}`,
    row.verdict,
    row.otherLoad ? `${row.otherLoad.otherCores} cores, load ${row.otherLoad.loadAverage}` : '–',
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map((line) => line[i].length)));
  const format = (line) => line.map((cell, i) => cell.padEnd(widths[i])).join(' | ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(format)].join('\n');
}

/**
 * A workload's row from the windows it measured on each side: each window's `key` is a sample,
 * its `load` the machine's other load then, and the rest its detail.
 */
function windowsRow({ key, ...row }, product, baseline) {
  const details = (windows) => windows.map(({ load: _load, ...rest }) => rest);
  return {
    ...row,
    product: product.map((w) => w[key]),
    baseline: baseline.map((w) => w[key]),
    load: [...product, ...baseline].map((w) => w.load),
    detail: { product: details(product), baseline: details(baseline) },
  };
}

/** A goal on product ÷ baseline. */
const ratioGoal = (op, value) => ({ kind: 'ratio', op, value });

module.exports = { judge, table, median, spread, windowsRow, ratioGoal };

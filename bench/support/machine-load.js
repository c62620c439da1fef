// The other load on the machine while a figure is measured: CPU time the whole machine spent
// (from /proc/stat) minus the CPU time of this run's own process tree (the runner, its children
// and their reaped children), and the load average. Work that PostgreSQL and NATS do for the run
// is not in the run's process tree, so it counts as other load.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const { cpuMs, CLOCK_TICKS_PER_SECOND } = require('./bench-env');

/** Busy CPU time of the whole machine so far, ms (every field of the `cpu` line but idle and iowait). */
function machineBusyMs() {
  const fields = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Every live process: pid → parent pid. */
function parents() {
  const map = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      map.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  return map;
}

/** CPU time of this process and all its descendants, reaped ones included, ms. */
function ownTreeMs() {
  const parentOf = parents();
  let total = 0;
  for (const pid of parentOf.keys()) {
    let ancestor = pid;
    while (ancestor > 1 && ancestor !== process.pid) ancestor = parentOf.get(ancestor) ?? 0;
    if (ancestor !== process.pid) continue;
    try {
      total += cpuMs(pid, { reapedChildren: true });
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** Starts watching; `stop()` answers the other processes' CPU use in cores and the 1-minute load average. */
function watchMachineLoad() {
  const started = { at: performance.now(), busy: machineBusyMs(), own: ownTreeMs() };
  return {
    stop() {
      const seconds = (performance.now() - started.at) / 1000;
      const other = machineBusyMs() - started.busy - (ownTreeMs() - started.own);
      return {
        otherCores: Math.max(0, Math.round(other / seconds / 10) / 100),
        loadAverage: Math.round(os.loadavg()[0] * 100) / 100,
      };
    },
  };
}

module.exports = { watchMachineLoad };

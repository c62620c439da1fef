// Where the processes of a bench run execute. On a machine with two cores or more the server
// under test runs alone on core 1 and everything else of the run (the runner, the load generator
// and its clients, helper processes) on core 0, so the server's CPU time is its own work and the
// load generator never competes with it for a core. With one core nothing is pinned.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const os = require('node:os');

const SERVER_CORE = 1;
const LOAD_CORE = 0;

function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const pinning = os.availableParallelism() >= 2 && hasTaskset();

/** Spawns `command args` on `core` (through `taskset -c`, so every thread is pinned from birth). */
function spawnOn(core, command, args, options) {
  if (!pinning) return spawn(command, args, options);
  return spawn('taskset', ['-c', String(core), command, ...args], options);
}

/** Pins this process (every thread) to the load core. */
function pinSelfToLoadCore() {
  if (pinning)
    execFileSync('taskset', ['-a', '-pc', String(LOAD_CORE), String(process.pid)], { stdio: 'ignore' });
}

module.exports = { pinning, spawnOn, pinSelfToLoadCore, SERVER_CORE, LOAD_CORE };

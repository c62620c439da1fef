// The load generator of a workload as a process of its own, on the load core: the fake provider
// and the clients live there, and the runner drives them by calls over the IPC channel. Run as a
// script it is that process: it requires the workload module given as its argument and answers
// `{ id, method, args }` with the method's result (`module.load[method](...args)`).
'use strict';
const path = require('node:path');
const { spawnOn, LOAD_CORE } = require('./cores');

/** Starts the load process of `workloadModule`; `call(method, ...args)` runs one of its load methods. */
function startLoadProcess(workloadModule) {
  const child = spawnOn(LOAD_CORE, process.execPath, [__filename, workloadModule], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map();
  let nextId = 0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.on('message', ({ id, result, error }) => {
    const call = pending.get(id);
    pending.delete(id);
    if (error) call.reject(new Error(`load process: ${error}`));
    else call.resolve(result);
  });
  child.once('exit', (code) => {
    for (const call of pending.values()) call.reject(new Error(`load process exited (${code})`));
  });
  return {
    pid: child.pid,
    call(method, ...args) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, method, args });
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

module.exports = { startLoadProcess };

// Exported before the workload is required: the workload requires this module too.
if (require.main === module) {
  require('./ts-sources');
  const { load } = require(path.resolve(process.argv[2]));
  process.on('message', async ({ id, method, args }) => {
    try {
      process.send({ id, result: await load[method](...args) });
    } catch (error) {
      process.send({ id, error: error?.stack ?? String(error) });
    }
  });
  process.on('SIGTERM', async () => {
    await load.close?.();
    process.exit(0);
  });
}

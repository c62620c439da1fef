// Lets a bench script require the TypeScript sources of the repository (apps, libs, test
// support) directly: ts-node without type checks, and the `@app/*` paths of tsconfig.json.
'use strict';
const path = require('node:path');

const { UNLIMITED_STREAMS } = require('./bench-keys');

const root = path.join(__dirname, '..', '..');
const project = path.join(root, 'tsconfig.json');
const tsconfig = require(project);
require('ts-node').register({ transpileOnly: true, project });
require('tsconfig-paths').register({ baseUrl: root, paths: tsconfig.compilerOptions.paths });

/**
 * Starts a service from its sources (`apps/<app>/src/main.ts`) in a child process with
 * `env` added to this one's, its logs at warn level and on this process's stderr.
 * `BENCH_SERVICE_NODE_ARGS` adds Node options to that process only, for example
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` (Node refuses profiling options in NODE_OPTIONS).
 */
function spawnService(app, env) {
  const { spawn } = require('node:child_process');
  return spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '-r',
      'ts-node/register/transpile-only',
      '-r',
      'tsconfig-paths/register',
      `apps/${app}/src/main.ts`,
    ],
    {
      cwd: root,
      env: { ...process.env, TS_NODE_PROJECT: project, LOG_LEVEL: 'warn', ...UNLIMITED_STREAMS, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** Stops a service started by spawnService, as Kubernetes would, and waits for it to exit. */
async function stopService(child) {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

module.exports = { root, project, spawnService, stopService };

#!/usr/bin/env node
// Docker HEALTHCHECK for whichever program the entrypoint started. One image
// runs five programs, so the check reads PID 1's command line (or takes the
// program as its argument) and asks that program's readiness route.
'use strict';
const http = require('node:http');
const { readFileSync } = require('node:fs');

const TIMEOUT_MS = 2500;

/**
 * The program a command line runs: the bundle the entrypoint executes, or,
 * under an init process (`docker run --init`, compose `init: true`), the
 * entrypoint's own argument.
 */
function programOf(argv) {
  for (const [index, arg] of argv.entries()) {
    if (arg.endsWith('/entrypoint.sh')) return argv[index + 1];
    const app = /dist\/apps\/([a-z-]+)\/main\.js$/.exec(arg);
    if (app) return app[1];
    if (/dist\/libs\/database\/migrate\/main\.js$/.test(arg)) return 'migrate';
    if (/dist\/libs\/auth\/keys\/main\.js$/.test(arg)) return 'keys';
  }
  return undefined;
}

/**
 * What to ask, and which answers count as healthy. The services must be
 * ready (200); the simulator has no health contract, so any HTTP answer
 * shows it serves. One-shot programs have nothing to check.
 */
function checkFor(program, env) {
  switch (program) {
    case 'fixtures-live':
      return {
        url: `http://127.0.0.1:${env.PORT || 3000}${env.BASE_PATH || '/v1'}/health/ready`,
        anyStatus: false,
      };
    case 'odds-passthrough':
      return { url: `http://127.0.0.1:${env.PORT || 3001}/readyz`, anyStatus: false };
    case 'feed-sim':
      return { url: `http://127.0.0.1:${env.SIM_PORT || 4000}/`, anyStatus: true };
    default:
      return undefined;
  }
}

function pid1Argv() {
  try {
    return readFileSync('/proc/1/cmdline', 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function probe(check) {
  return new Promise((resolve) => {
    const request = http.get(check.url, { timeout: TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(check.anyStatus || response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(false));
  });
}

async function main() {
  const program = process.argv[2] || programOf(pid1Argv());
  const check = checkFor(program, process.env);
  if (!check) return 0;
  return (await probe(check)) ? 0 : 1;
}

if (require.main === module) {
  main().then((code) => process.exit(code));
}

module.exports = { programOf, checkFor };

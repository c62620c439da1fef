// REST throughput of a product route against bare Express answering the very bytes the product
// answered (bare-rest-server.js): both servers on the server core at once, loaded in turn, window
// by window, by autocannon in its own process on the load core, so both see the same background
// load. Figure: requests per second.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./bench-env');
const { spawnOn, LOAD_CORE } = require('./cores');
const { watchMachineLoad } = require('./machine-load');
const { spawnBaseline, stopProcess, listening } = require('./services');

/** One autocannon window against `url` with the key, in its own process on the load core. */
function autocannon(url, key, seconds, connections) {
  return new Promise((resolve, reject) => {
    const child = spawnOn(
      LOAD_CORE,
      process.execPath,
      [
        require.resolve('autocannon/autocannon.js'),
        ...['-c', String(connections), '-d', String(seconds), '-j', '-H', `X-API-Key=${key}`, url],
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const result = JSON.parse(out);
        resolve({
          requestsPerSecond: result.requests.average,
          latencyP99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/**
 * Fetches `pathAndQuery` from the product at `origin` with `key` once (`check` may refuse the
 * answer), starts the bare server with those bytes on the same route, then measures `reps` windows
 * of each in turn after a warm-up of each. Answers the windows per side and the answer's size.
 */
async function restWindows({ origin, pathAndQuery, key, check, connections, reps, seconds, warmup }) {
  const productUrl = `${origin}${pathAndQuery}`;
  const response = await fetch(productUrl, { headers: { 'X-API-Key': key } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || !check(JSON.parse(body.toString()))) {
    throw new Error(`unexpected answer ${response.status}: ${body.toString().slice(0, 200)}`);
  }
  const bodyFile = path.join(os.tmpdir(), `bench-rest-${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(bodyFile, body);
  const port = await freePort();
  const baseline = spawnBaseline('bare-rest-server.js', {
    PORT: String(port),
    BODY_FILE: bodyFile,
    CONTENT_TYPE: response.headers.get('content-type'),
    ROUTE: new URL(productUrl).pathname,
  });
  try {
    const baselineUrl = `http://127.0.0.1:${port}${pathAndQuery}`;
    await listening(baselineUrl, 'the bare REST server to listen');
    await autocannon(baselineUrl, key, warmup, connections);
    await autocannon(productUrl, key, warmup, connections);
    const sides = { product: [], baseline: [] };
    for (let r = 0; r < reps; r++) {
      for (const [side, url] of [
        ['product', productUrl],
        ['baseline', baselineUrl],
      ]) {
        const watch = watchMachineLoad();
        const window = await autocannon(url, key, seconds, connections);
        sides[side].push({ ...window, load: watch.stop() });
      }
    }
    return { ...sides, bytes: body.length };
  } finally {
    await stopProcess(baseline);
    fs.rmSync(bodyFile, { force: true });
  }
}

module.exports = { restWindows };

#!/usr/bin/env node
// Builds a Nest project when its bundle is missing or older than any source,
// so `npm run keys` and `npm run migrate` work straight after `npm ci`.
// Build output goes to stderr: these commands print JSON on stdout.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const OUTPUTS = {
  'fixtures-live': 'dist/apps/fixtures-live/main.js',
  'odds-passthrough': 'dist/apps/odds-passthrough/main.js',
  'feed-sim': 'dist/apps/feed-sim/main.js',
  keys: 'dist/libs/auth/keys/main.js',
  migrate: 'dist/libs/database/migrate/main.js',
};

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

const projects = process.argv.slice(2);
const targets = projects.length > 0 ? projects : Object.keys(OUTPUTS);
const sourcesChanged = Math.max(
  newestSource(join(root, 'apps')),
  newestSource(join(root, 'libs')),
  ...['package-lock.json', 'tsconfig.json', 'nest-cli.json'].map((f) => statSync(join(root, f)).mtimeMs),
);

for (const project of targets) {
  const output = OUTPUTS[project];
  if (!output) {
    process.stderr.write(`ensure-build: unknown project ${project}\n`);
    process.exit(2);
  }
  const bundle = join(root, output);
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sourcesChanged) continue;
  process.stderr.write(`building ${project}...\n`);
  const result = spawnSync(join(root, 'node_modules/.bin/nest'), ['build', project], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (result.status !== 0) {
    process.stderr.write(`ensure-build: building ${project} failed\n`);
    process.exit(result.status ?? 1);
  }
  // webpack leaves an unchanged bundle untouched; mark it as checked now.
  const now = new Date();
  utimesSync(bundle, now, now);
}

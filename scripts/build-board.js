#!/usr/bin/env node
// Bundles the live board (board/src/board.js and the reference client from
// packages/client/src) into board/dist/board.js, one script for the browser.
// The demo (npm start) runs this before it serves board/. Not part of
// `npm run build`: the service image has no board.
'use strict';
const { join } = require('node:path');
const { buildSync } = require('esbuild');

const root = join(__dirname, '..');

buildSync({
  entryPoints: [join(root, 'board/src/board.js')],
  outfile: join(root, 'board/dist/board.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  // Browsers have a global WebSocket: the client never loads ws there.
  external: ['ws'],
  alias: { '@sports-data/client': join(root, 'packages/client/src/index.ts') },
  sourcemap: true,
  logLevel: 'warning',
});

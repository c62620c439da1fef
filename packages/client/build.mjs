// Builds dist/esm/index.mjs, dist/cjs/index.cjs (esbuild) and dist/types (tsc).
// `ws` stays an import: Node loads it only when there is no global WebSocket.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
rmSync(join(here, 'dist'), { recursive: true, force: true });

const common = {
  entryPoints: [join(here, 'src/index.ts')],
  bundle: true,
  external: ['ws'],
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
};
await build({ ...common, format: 'esm', platform: 'neutral', outfile: join(here, 'dist/esm/index.mjs') });
await build({ ...common, format: 'cjs', platform: 'node', outfile: join(here, 'dist/cjs/index.cjs') });

const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });

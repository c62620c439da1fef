import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = join(root, 'packages', 'client');

/**
 * The published shape of packages/client: its build gives an ES module, a
 * CommonJS module and declarations, and both modules load by the package name
 * through the exports map (the other tests use the TypeScript source).
 */
describe('@sports-data/client build', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(pkg, 'build.mjs')], { cwd: pkg, stdio: 'pipe' });
  }, 120_000);

  it('writes the files the exports map names', () => {
    for (const file of ['dist/esm/index.mjs', 'dist/cjs/index.cjs', 'dist/types/index.d.ts']) {
      expect(existsSync(join(pkg, file))).toBe(true);
    }
  });

  const probe =
    'console.log(JSON.stringify([typeof c.FixturesClient, typeof c.OddsClient, typeof c.LiveScoresStream, ' +
    'typeof c.OddsStream, c.backoffDelay(0, { initialMs: 100, maxMs: 100 }, () => 1)]));';

  it.each([
    ['CommonJS', ['-e', `const c = require('@sports-data/client'); ${probe}`]],
    ['an ES module', ['--input-type=module', '-e', `import * as c from '@sports-data/client'; ${probe}`]],
  ])('loads as %s', (_, args) => {
    const output = execFileSync(process.execPath, args, { cwd: root }).toString();
    expect(JSON.parse(output)).toEqual(['function', 'function', 'function', 'function', 100]);
  });
});

// Unit tests sit beside the code (*.spec.ts); integration and e2e tests live
// in test/ and run against the real PostgreSQL and NATS of the machine, in a
// database created for this run only (test/support/global-setup.ts).
'use strict';

const aliases = [
  'auth',
  'clock',
  'config',
  'database',
  'health',
  'http-edge',
  'leadership',
  'messaging',
  'observability',
  'streaming',
];
const moduleNameMapper = Object.fromEntries(
  aliases.flatMap((name) => [
    [`^@app/${name}$`, `<rootDir>/libs/${name}/src`],
    [`^@app/${name}/(.*)$`, `<rootDir>/libs/${name}/src/$1`],
  ]),
);
// Tests use the client's TypeScript source, so nothing needs building first.
moduleNameMapper['^@sports-data/client$'] = '<rootDir>/packages/client/src';

const shared = {
  rootDir: __dirname,
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  testEnvironment: 'node',
  moduleNameMapper,
  modulePathIgnorePatterns: ['<rootDir>/packages/[^/]+/dist/'],
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/packages'],
      testRegex: '\\.spec\\.ts$',
    },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testRegex: '\\.e2e-spec\\.ts$',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
    },
    {
      // Checks of the Docker, Kubernetes and AsyncAPI files: no database, so no global setup.
      ...shared,
      displayName: 'deploy',
      roots: ['<rootDir>/test/deploy'],
      testRegex: '\\.spec\\.ts$',
    },
  ],
};

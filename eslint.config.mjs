import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * What each library may import of the others: lower layers know nothing of
 * higher ones (observability reports nothing about keys; streaming knows no
 * NATS subject or key), and no library imports an app.
 */
const LIBRARY_LAYERS = {
  clock: [],
  config: [],
  observability: [],
  'http-edge': ['observability'],
  database: ['config'],
  messaging: ['clock', 'config', 'observability'],
  health: ['clock', 'config', 'database', 'messaging', 'observability'],
  leadership: ['clock', 'config', 'health', 'messaging', 'observability'],
  auth: ['clock', 'config', 'database', 'http-edge', 'messaging', 'observability'],
  streaming: ['clock', 'config', 'http-edge', 'observability'],
};

const layering = Object.entries(LIBRARY_LAYERS).map(([library, allowed]) => {
  const forbidden = Object.keys(LIBRARY_LAYERS).filter(
    (other) => other !== library && !allowed.includes(other),
  );
  return {
    files: [`libs/${library}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: forbidden.flatMap((other) => [`@app/${other}`, `@app/${other}/*`]),
              message: `libs/${library} may import only ${allowed.join(', ') || 'no other library'} (eslint.config.mjs, LIBRARY_LAYERS).`,
            },
            { group: ['**/apps/**'], message: 'A library never imports an app.' },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'packages/*/dist/**', 'board/dist/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The board's source is an ES module that esbuild bundles for the browser (scripts/build-board.js).
    files: ['board/**/*.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  ...layering,
  prettier,
);

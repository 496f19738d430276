// One lint setup for every package. The import rules keep the architecture:
// packages meet only through their `exports`, remotes never import the host or
// each other, and shared-config imports no app.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const APPS = ['host', 'remote-home', 'remote-about', 'remote-contact'];

const noReachingIn = {
  group: ['@portico/*/src/*', '../../*/src/*', '../../../*/src/*'],
  message: 'Import another package through its package.json exports, never from its src/.',
};

const appImports = (self) => ({
  group: APPS.filter((app) => app !== self).flatMap((app) => [`@portico/${app}`, `**/${app}/**`]),
  message: 'Apps never import each other: remotes are loaded at run time by the host.',
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.tsbuild/**', '**/coverage/**', 'tests/test-results/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': 'allow-with-description' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-imports': ['error', { patterns: [noReachingIn] }],
    },
  },
  {
    files: ['**/*.tsx', '**/use-*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...APPS.map((app) => ({
    files: [`${app}/**`],
    rules: { 'no-restricted-imports': ['error', { patterns: [noReachingIn, appImports(app)] }] },
  })),
  {
    files: ['shared-config/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noReachingIn,
            { group: APPS.flatMap((app) => [`@portico/${app}`, `**/${app}/**`]), message: 'shared-config imports no app.' },
          ],
        },
      ],
    },
  },
  {
    // The benchmark builds variants of the same page (one bundle, extra
    // remotes) from the apps' own sources, so it may reach into them.
    files: ['bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Command-line programs talk to their operator on stdout.
    files: ['server/src/main.ts', 'messages/src/cli/*-cli.ts', 'messages/src/bench/**', 'deploy/src/*-cli.ts', 'deploy/src/bench-server.ts', 'scripts/**', 'bench/**', 'tests/support/**', 'tests/screenshots.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

// One lint setup for every package. The import rules keep the architecture:
// packages meet only through their `exports`, every workspace imports only the
// workspaces ALLOWED names, remotes never import the host or each other, and
// shared-config imports no workspace and nothing of Node (Node's side of the
// config is config-server's).
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const { workspaces } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/**
 * The apps: the host and every section's remote, i.e. every workspace whose
 * folder is `remote-<id>` (the built-in ones, examples/remote-calculator, and
 * each one `npm run section:new` adds), so an added section is held to the
 * same boundaries without an edit here.
 */
const APPS = ['host', ...workspaces.filter((workspace) => /(^|\/)remote-[a-z0-9-]+$/.test(workspace))];

/** A workspace's package name after `@portico/`: its folder's own name. */
const packageOf = (workspace) => workspace.split('/').pop();

/**
 * Which workspaces each workspace may import, and nothing else: the imports
 * flow one way (contract and test kit -> apps -> server -> operator tools).
 * The test kit is for tests (and a remote's standalone page), so it is
 * allowed per file below, not here.
 */
const ALLOWED = {
  webpack: ['config-server', 'contract', 'shared-config'],
  // What everyone agrees on: pure, imports no workspace.
  contract: [],
  'shared-config': ['contract'],
  // The control API as its callers see it (its shapes and the one client): browser-safe, for the console and the commands alike.
  'control-contract': ['contract', 'shared-config'],
  // Node only: the config.json and theme stylesheet answers, for the server and the dev server.
  'config-server': ['contract', 'shared-config'],
  // Node's shared side (database, data folder, control address, settings, HTTP basics): below every server package.
  platform: ['contract', 'control-contract'],
  toolkit: [],
  testing: ['contract', 'shared-config'],
  ...Object.fromEntries(APPS.map((app) => [app, ['contract', 'shared-config', 'toolkit', 'webpack']])),
  // The host's render workers evaluate the sections' node builds with @portico/node-sections.
  host: ['config-server', 'contract', 'node-sections', 'shared-config', 'toolkit', 'webpack'],
  messages: ['config-server', 'contract', 'control-contract', 'platform', 'shared-config'],
  // The control plane: the release store, its checks and the control API; the database side is platform's.
  releases: ['contract', 'control-contract', 'messages', 'node-sections', 'platform', 'shared-config', 'webpack'],
  server: ['config-server', 'contract', 'control-contract', 'messages', 'node-sections', 'platform', 'releases', 'shared-config'],
  // The operator console: a browser app that reads the control API through its contract and typed client, and nothing else.
  console: ['contract', 'control-contract', 'platform', 'shared-config', 'webpack'],
  'node-sections': ['contract', 'shared-config'],
  // check-remotes runs the publish checks' parts (@portico/releases/checks), the page's manifest check among them.
  deploy: ['contract', 'platform', 'server', 'releases', 'shared-config'],
  tests: ['contract', 'platform', 'server', 'shared-config', 'testing'],
  // `npm run section:new`: the id rules; its template/ is held to an app's rules below.
  'new-section': ['contract'],
};
const WORKSPACES = Object.keys(ALLOWED);

/** Files that may use the test kit besides the listed imports. */
const TEST_KIT_USERS = ['**/__tests__/**', 'src/bootstrap.tsx', 'src/testing/**'];

const noReachingIn = {
  group: ['@portico/*/src/*', '../../*/src/*', '../../../*/src/*'],
  message: 'Import another package through its package.json exports, never from its src/.',
};

const boundaries = (workspace, allowed) => ({
  group: WORKSPACES.filter((other) => other !== workspace && !allowed.includes(other)).flatMap((other) => [
    `@portico/${packageOf(other)}`,
    `@portico/${packageOf(other)}/*`,
    // Apps are never imported by relative path either.
    ...(APPS.includes(other) ? [`**/${packageOf(other)}/**`] : []),
  ]),
  message: `${workspace} may import only ${allowed.length > 0 ? allowed.map((name) => `@portico/${name}`).join(', ') : 'no other workspace'} (eslint.config.mjs ALLOWED): apps never import each other, shared-config and the toolkit import no workspace.`,
});

/**
 * Names shared-config's root still exports only for sections already
 * deployed (see shared-config/src/index.ts): this repository imports them
 * from @portico/contract, their one import path.
 */
const fromContract = {
  name: '@portico/shared-config',
  importNames: [
    'EXPOSED_SECTION',
    'remoteNameOf',
    'SECTION_IDS',
    'SectionId',
    'LANGUAGE_NAMES',
    'LANGUAGE_PARAM',
    'LANGUAGES',
    'languageFromSearch',
    'localeOf',
    'pagePath',
    'searchWithLanguage',
    'Language',
  ],
  message: 'Import section ids and languages from @portico/contract/sections or /languages: shared-config re-exports them only for deployed sections.',
};

const importRules = (workspace, allowed) => ({
  'no-restricted-imports': ['error', { paths: [fromContract], patterns: [noReachingIn, boundaries(workspace, allowed)] }],
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-node/**', '**/node_modules/**', '**/.tsbuild/**', '**/coverage/**', 'tests/test-results/**', 'bench/out/**'] },
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
  ...WORKSPACES.map((workspace) => ({
    files: [`${workspace}/**`],
    rules: importRules(workspace, ALLOWED[workspace]),
  })),
  // The server's build step, never the serving process (which loads no toolchain: server/src/__tests__/compiled-modules.test.ts), finds Module Federation's semver module as the islands' build does.
  { files: ['server/compile/**'], rules: importRules('server', [...ALLOWED.server, 'webpack']) },
  ...WORKSPACES.map((workspace) => ({
    files: TEST_KIT_USERS.map((pattern) => `${workspace}/${pattern}`),
    rules: importRules(workspace, [...new Set([...ALLOWED[workspace], 'testing'])]),
  })),
  {
    // The template is a section's remote with placeholders: an app's imports.
    files: ['new-section/template/**'],
    rules: importRules('new-section', ALLOWED['remote-home']),
  },
  {
    files: TEST_KIT_USERS.map((pattern) => `new-section/template/${pattern}`),
    rules: importRules('new-section', [...ALLOWED['remote-home'], 'testing']),
  },
  {
    // The contract and the runtime modules are bundled for the browser; only
    // tests may use Node's modules.
    files: ['shared-config/src/**'],
    ignores: ['**/__tests__/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noReachingIn,
            boundaries('shared-config', ALLOWED['shared-config']),
            { group: ['node:*'], message: 'shared-config is bundled for the browser; Node-only code goes in @portico/config-server.' },
          ],
        },
      ],
    },
  },
  {
    // The contract is pure: bundled into browsers and servers alike, it uses
    // nothing of Node's, and its globals are the language's and the URL's.
    files: ['contract/src/**'],
    ignores: ['**/__tests__/**'],
    languageOptions: { globals: { URL: 'readonly', URLSearchParams: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly' } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noReachingIn,
            boundaries('contract', []),
            { group: ['node:*', 'react', 'react-*', 'zod'], message: 'contract is pure data and functions: no Node, no React, no zod.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require', 'fetch', 'navigator', 'location'],
    },
  },
  {
    // The control API's contract and its one client run in the console (a
    // browser) and in the operator's commands (Node 20): only what both have,
    // fetch, URL and AbortSignal among it, and no server framework.
    files: ['control-contract/src/**'],
    ignores: ['**/__tests__/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noReachingIn,
            boundaries('control-contract', ALLOWED['control-contract']),
            { group: ['node:*', 'fastify', 'fastify-*', '@fastify/*'], message: 'control-contract runs in the console too: no Node, no Fastify.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer', 'require', 'navigator', 'location'],
    },
  },
  {
    // The benchmark builds variants of the same page (one bundle, extra
    // remotes) from the apps' own sources, so it may reach into them.
    files: ['bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // A server-side module a maintainer reads in one sitting (issue 33):
    // split along its seams before it grows past these.
    files: ['server/src/**/*.ts', 'releases/src/**/*.ts', 'messages/src/**/*.ts'],
    ignores: ['**/__tests__/**', '**/testing/**'],
    rules: { 'max-lines': ['error', { max: 400 }], 'max-lines-per-function': ['error', { max: 150 }] },
  },
  {
    // Command-line programs talk to their operator on stdout.
    files: ['server/src/main.ts', 'messages/src/cli/*-cli.ts', 'deploy/src/*-cli.ts', 'bench/**', 'tests/support/**', 'tests/screenshots.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

// @ts-check
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * Folder boundaries (which folder may import which), checked on the import's path as written: every import
 * in this project is relative, so `../discord/x.ts` from `src/render` names `src/discord`.
 */
const upTo = (/** @type {string[]} */ folders) => `^(\\.\\.?/)+(src/)?(${folders.join('|')})(/|$)`;
const KEYV = { group: ['keyv', '@keyv/*'], message: 'Only src/store touches Keyv.' };
const NO_DEV = {
  regex: upTo(['dev']),
  message: 'src/dev holds development tools (sandbox, stand-in, demo): production code never imports them.',
};
const NO_UPWARD = {
  regex: upTo(['discord', 'announcements', 'kpd', 'link', 'secrets', 'commands', 'dev']),
  message:
    'render, api, store, db, limits, metrics, core, i18n, log and config are the lower layers: they never import Discord, ' +
    'the domain (announcements, kpd, link, secrets), commands or src/dev.',
};
const NO_COMMAND_TYPES = {
  regex: '^(\\.\\./)+discord/command\\.ts$',
  message: 'Domain code does not depend on the command layer; the command half lives beside the command.',
};
const restrict = (/** @type {object[]} */ ...patterns) => ['error', { patterns }];

const LOWER = ['render', 'api', 'store', 'db', 'limits', 'metrics', 'core', 'i18n', 'log', 'config'];
const DOMAIN = ['announcements', 'kpd', 'link', 'secrets'];
const inFolders = (/** @type {string[]} */ folders) => folders.map((folder) => `src/${folder}/**`);

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'demo-output/', 'dist/', 'dist-*/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Discord counts characters as code points, which is what spreading a string yields.
      '@typescript-eslint/no-misused-spread': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/config reads process.env.' },
      ],
      'no-restricted-imports': restrict(KEYV),
    },
  },
  // Boundaries. Each file gets one list (a later block replaces an earlier one's), so each repeats KEYV.
  {
    files: ['src/**', 'commands/**'],
    ignores: ['src/dev/**'],
    rules: { 'no-restricted-imports': restrict(KEYV, NO_DEV) },
  },
  {
    files: inFolders(DOMAIN),
    rules: { 'no-restricted-imports': restrict(KEYV, NO_DEV, NO_COMMAND_TYPES) },
  },
  {
    files: inFolders(LOWER),
    ignores: ['src/store/**'],
    rules: { 'no-restricted-imports': restrict(KEYV, NO_UPWARD) },
  },
  {
    files: ['src/store/**'],
    rules: { 'no-restricted-imports': restrict(NO_UPWARD) },
  },
  {
    files: ['src/**', 'commands/**'],
    plugins: { 'import-x': importX },
    settings: {
      // Imports name their `.ts` files, so Node's resolution finds them: no TypeScript resolver needed.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'max-lines': ['error', { max: 400 }],
    },
  },
  {
    // Tables of routes and schemas: long, flat, and read one entry at a time.
    files: ['src/api/routes*.ts', 'src/api/routes/**', 'src/api/schemas/**'],
    rules: { 'max-lines': 'off' },
  },
  {
    files: ['src/config/**', 'test/**', 'bench/**', '*.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['test/store/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

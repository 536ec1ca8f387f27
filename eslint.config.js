// @ts-check
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

/**
 * Folder boundaries: which folder may import which, as one matrix (eslint-plugin-boundaries, chosen over
 * hand-written path patterns because it names each file's element once and checks every import against
 * one table). Every source folder is an element; a feature (`src/features/<name>`) may import only its
 * own files and the shared layers, never another feature. docs/adr/009 explains the layers.
 */
const LOWER = ['traffic', 'render', 'api', 'store', 'db', 'metrics', 'core', 'i18n', 'log', 'config'];
const SHARED = ['announcements', 'players', 'search', 'secrets', 'names', 'discord'];
const FOLDERS = [...LOWER, ...SHARED];
const ELEMENTS = [
  { type: 'services', mode: 'full', pattern: 'src/services.ts' },
  { type: 'app', mode: 'full', pattern: ['src/*.ts', 'src/processes/**', 'src/guilds/**', 'src/upgrade/**'] },
  { type: 'dev', mode: 'full', pattern: 'src/dev/**' },
  { type: 'feature', mode: 'full', pattern: 'src/features/*/**', capture: ['name'] },
  { type: 'commands', mode: 'full', pattern: 'commands/**' },
  ...FOLDERS.map((folder) => ({ type: folder, mode: 'full', pattern: `src/${folder}/**` })),
];
/** Who may import whom, besides its own element. */
const MATRIX = {
  app: ['services', 'feature', 'commands', ...FOLDERS],
  dev: ['app', 'services', 'feature', 'commands', ...FOLDERS],
  commands: ['services', 'feature', ...FOLDERS],
  feature: ['services', ...LOWER, 'announcements', 'players', 'search', 'secrets', 'names', 'discord'],
  services: ['api', 'config', 'core', 'db', 'i18n', 'names', 'store', 'traffic'],
  announcements: ['services', ...LOWER],
  players: ['services', 'announcements', ...LOWER],
  search: ['discord', 'names', ...LOWER],
  discord: ['services', ...LOWER],
  secrets: ['render', 'core'],
  names: ['store'],
  traffic: ['config', 'core', 'log', 'store'],
  api: ['config', 'core', 'log', 'metrics', 'traffic'],
  render: ['api', 'core', 'i18n'],
  db: ['store'],
  store: ['core', 'log'],
  config: ['log'],
  i18n: ['core'],
  metrics: ['core'],
  core: [],
  log: [],
};
/** The matrix, for the lint test that probes every pair of it. */
export const BOUNDARY_MATRIX = MATRIX;
export const BOUNDARY_ELEMENTS = ELEMENTS;

const BOUNDARY_RULES = Object.entries(MATRIX).map(([from, allowed]) => ({
  from,
  // A feature's own files, not another feature's; every other element its own files.
  allow: [from === 'feature' ? ['feature', { name: '{{ from.captured.name }}' }] : from, ...allowed],
}));
const KEYV = { group: ['keyv', '@keyv/*'], message: 'Only src/store touches Keyv.' };
const restrict = (/** @type {object[]} */ ...patterns) => ['error', { patterns }];

/**
 * Commands do not import each other: a command file reads its options and calls its feature, and what two
 * commands share lives in a feature wing or a shared layer (the announcement channel checks in
 * `src/announcements/manage.ts`, the official map names in `src/features/maps`). `commands/subscribe/` holds
 * the command halves of the announcement kinds: they may import each other but no command, and the other
 * commands read only its list of kinds (`kinds.ts`, to describe a subscription).
 */
const COMMAND_IMPORTS = {
  regex: String.raw`^\./(?!subscribe/kinds\.ts$)`,
  message:
    'A command imports no other command: move what they share into src/features/<name> or a shared layer.',
};
const KIND_HALF_IMPORTS = {
  regex: String.raw`^\.\./[^/]+$`,
  message: 'A command half of a kind imports no command: move what they share into a shared layer.',
};

/**
 * Functions read top to bottom in one screen: at most 80 lines. The exempt files are tables and drawings
 * that read as a list (SVG builders, the stand-in's validators, route tables), named here one by one.
 */
const LONG_FUNCTIONS_ALLOWED = [
  // SVG drawings: one element after another, top to bottom.
  'src/features/history/chart.ts',
  'src/features/market/overview-chart.ts',
  'src/features/market/price-chart.ts',
  'src/features/players/card.ts',
  'src/features/players/ranked-chart.ts',
  // The first migration: one table after another.
  'src/db/migrations.ts',
  // Development tools: route tables of the sandbox and the stand-in, read one route at a time.
  'src/dev/**',
];

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
  {
    files: ['src/**', 'commands/**'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/include': ['src/**/*.ts', 'commands/**/*.ts'],
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
      'boundaries/legacy-templates': false,
    },
    rules: {
      'boundaries/element-types': ['error', { default: 'disallow', rules: BOUNDARY_RULES }],
      'boundaries/no-unknown-files': 'error',
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['commands/*.ts'],
    rules: { 'no-restricted-imports': restrict(KEYV, COMMAND_IMPORTS) },
  },
  {
    files: ['commands/subscribe/**'],
    rules: { 'no-restricted-imports': restrict(KEYV, KIND_HALF_IMPORTS) },
  },
  {
    files: ['src/store/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: LONG_FUNCTIONS_ALLOWED.length === 0 ? ['<none>'] : LONG_FUNCTIONS_ALLOWED,
    rules: { 'max-lines-per-function': 'off' },
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

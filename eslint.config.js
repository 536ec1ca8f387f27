// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'demo-output/'] },
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['keyv', '@keyv/*'], message: 'Only src/store touches Keyv.' }],
        },
      ],
    },
  },
  {
    files: ['src/config/**', 'test/**', 'bench/**', '*.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/store/**', 'test/store/**'],
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

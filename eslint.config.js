import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'dist/',
      'coverage/',
      'bench/results/',
      'bench/.cache/',
      'test/fixtures/',
      '.tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'error',
    },
  },
  {
    // A dropped promise loses its rejection and its ordering; a switch over a union must
    // say what each member does. Both need the type checker, so only the TypeScript
    // files (all inside tsconfig.json) get the project service.
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test queues each test and suite itself and reports its failure; the
          // promise it returns is only for callers that want to wait on one.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests read JSON responses of many shapes.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/cli/**', 'scripts/**', 'bench/**', 'bin/**', 'test/helpers/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // `slotline --help` must not load the service: the command files import only commander,
    // Node built-ins, each other and light helpers up front, and the service code inside
    // their actions with `await import(...)` (which this rule leaves alone), when they run.
    files: ['src/cli/index.ts', 'src/cli/shared.ts', 'src/cli/*.command.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!commander$|node:|\\./shared\\.ts$|\\./[a-z-]+\\.command\\.ts$|\\.\\./lib/operator-error\\.ts$)',
              allowTypeImports: true,
              message: 'load service code inside the action, with await import(...)',
            },
          ],
        },
      ],
    },
  },
);

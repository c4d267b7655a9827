import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'bench/results/', 'test/fixtures/', '.tmp/'] },
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
    // Tests read JSON responses of many shapes.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/cli/**', 'scripts/**', 'bench/**', 'bin/**', 'test/helpers/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Services and repositories return data: replies, bodies and the read cache are the routes'.
    files: ['src/modules/**/*.ts'],
    ignores: ['src/modules/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(fastify|@fastify/.*)$|/http/(read-cache|json-template)\\.ts$',
              message: 'only *.routes.ts files speak HTTP; return data to the route instead',
            },
          ],
        },
      ],
    },
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

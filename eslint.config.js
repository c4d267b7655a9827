import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Import boundaries: each arrow GUIDE.md ("Rules of direction") forbids is an error of
// @typescript-eslint/no-restricted-imports. Imports are relative with their `.ts`
// extension, so a pattern matches the specifier as written: `(../)+name` is a top-level
// entry of src/ reached by climbing, at whatever depth the importing file sits.

// The top-level entries of src/ in GUIDE.md's layout (and the composition-root files).
const SRC_FOLDERS = [
  'cli',
  'db',
  'dispatch',
  'http',
  'lib',
  'mcp',
  'media',
  'modules',
  'ops',
  'pages',
  'schedule',
  'schemas',
  'simulator',
];
const SRC_FILES = [
  'access',
  'app',
  'bootstrap',
  'cli',
  'config',
  'context',
  'errors',
  'main',
  'plans',
];

/** A pattern for the src/ folders (`name/`) and files (`name.ts`) named, reached by climbing. */
function climbingTo(folders, files, message, allowTypeImports = false) {
  const names = [...folders.map((f) => `${f}/`), ...files.map((f) => `${f}\\.ts$`)];
  return { regex: `^(?:\\.\\./)+(?:${names.join('|')})`, message, allowTypeImports };
}

/** Every top-level entry of src/ except those kept, for a folder that sits below them all. */
function everythingBut(keepFolders, keepFiles, message) {
  return climbingTo(
    SRC_FOLDERS.filter((f) => !keepFolders.includes(f)),
    SRC_FILES.filter((f) => !keepFiles.includes(f)),
    message,
  );
}

const NO_FASTIFY = {
  regex: '^(?:fastify(?:/|$)|@fastify/)',
  message: 'Fastify belongs to routes and http/ only',
};
// Queries are the db layer's and the repositories' business, not a pure helper's.
const NO_DATABASE = {
  regex: '^(?:kysely|pg|better-sqlite3)$',
  message: 'pure code takes values, not a database',
};
const NO_RUNNERS = climbingTo(
  ['dispatch', 'simulator'],
  [],
  'dispatch/ and simulator/ are runners above the modules: they call down, nothing calls up',
);
const REPOSITORY = '\\.repository\\.ts$';
// A module is entered from outside only through its face, `modules/<name>/index.ts`.
const FACE_MESSAGE =
  'enter a module through its face, modules/<name>/index.ts, never another of its files';
// (A repository has a rule and a message of its own, so it is left out of these.)
/** From outside modules/: `(../)*modules/<name>/<file>` other than index.ts. */
const THROUGH_FACES = {
  regex: '^(?:\\.\\./)*(?:\\./)?modules/[^/]+/(?!index\\.ts$)(?![^/]*\\.repository\\.ts$)',
  message: FACE_MESSAGE,
};
/** From a module file: `../<other>/<file>` other than index.ts. */
const THROUGH_OTHER_FACES = {
  regex: '^\\.\\./[^./][^/]*/(?!index\\.ts$)(?![^/]*\\.repository\\.ts$)',
  message: FACE_MESSAGE,
};
// ops/ (health, readiness, metrics exposition) is wired by the composition root only; the
// parts it observes report through the MetricsRecorder of lib/metrics.ts.
const NO_OPS = climbingTo(
  ['ops'],
  [],
  'ops/ is wired by the composition root: report through ctx.metrics (lib/metrics.ts)',
);
const NO_PROM = {
  regex: '^prom-client$',
  message: 'prom-client belongs to ops/: report through ctx.metrics (lib/metrics.ts)',
};
// The web apps and their kit sit above the modules and the HTTP layer: nothing below them
// reaches up into pages/.
const NO_PAGES = climbingTo(
  ['pages'],
  [],
  'pages/ (the web apps and their kit) sits above this layer: nothing here imports it',
);
// The web apps' shared kit (pages/kit/) and the apps themselves are plugins above the
// modules: they call module faces and read their types, never a repository or the database,
// and none imports the composition root that registers them, nor the runners and ops/
// beside them. Fastify and http/ are theirs; of db/, types and errors.ts, which tells the
// database's refusals of a value apart (as http/errors.ts does).
function pagePatterns(who) {
  return [
    { regex: REPOSITORY, message: `${who} calls module services, never a repository` },
    {
      // A read model beside its pages may keep what it derived while the data is unchanged.
      regex: '^(?:\\.\\./)+db/(?!errors\\.ts$|versioned-memo\\.ts$)',
      message: `${who} never touches the database: call a module service`,
      allowTypeImports: true,
    },
    {
      regex: '^(?:kysely|pg|better-sqlite3)$',
      message: `${who} never touches the database: call a module service`,
      allowTypeImports: true,
    },
    climbingTo(
      ['cli'],
      ['app', 'bootstrap', 'main'],
      `${who} sits below the composition root that registers the pages: it never imports it`,
    ),
    THROUGH_FACES,
    NO_RUNNERS,
    NO_OPS,
    NO_PROM,
  ];
}

// One object per group of files, and the groups disjoint (src/cli/ keeps its own rule,
// below): for the same rule a later object's options replace an earlier one's, they do
// not add to them.
const boundaries = [
  {
    // ApiError and the catalog: imported by every layer, so it imports none of them.
    files: ['src/errors.ts'],
    patterns: [
      {
        regex: '^(?!\\./lib/|node:)',
        message: 'errors.ts is framework-free and below every layer: it may import lib/ only',
      },
    ],
  },
  {
    // The root vocabulary (configuration, context, principals, plans) sits below every
    // layer that uses it: what it needs of a module is an interface it defines and the
    // module implements, wired by the composition root (bootstrap.ts, app.ts).
    files: ['src/config.ts', 'src/context.ts', 'src/access.ts', 'src/plans.ts'],
    patterns: [
      {
        regex: '^\\./(?:modules|http|pages|dispatch|simulator|ops|cli)/',
        message: 'the root files import no module, http/, page or runner: define an interface here',
      },
      {
        regex: '^\\./(?:app|bootstrap|main|cli)\\.ts$',
        message: 'the root files sit below the composition root',
      },
    ],
  },
  {
    // lib/ and schedule/ are flat, so any climb out of them that is not into lib/ (or, for
    // lib/, the framework-free errors.ts) goes to a higher layer. (A subfolder would make its `../x.ts` look like such a climb
    // and fail loudly, not pass silently.)
    files: ['src/lib/**'],
    patterns: [
      {
        regex: '^(?:\\.\\./)+(?!\\.\\./|lib/|errors\\.ts$)',
        message: 'lib/ holds pure helpers: it imports nothing from src/ outside lib/ and errors.ts',
      },
      NO_FASTIFY,
      NO_DATABASE,
      NO_PROM,
    ],
  },
  {
    files: ['src/schedule/**'],
    patterns: [
      {
        regex: '^(?:\\.\\./)+(?!\\.\\./|lib/)',
        message: 'schedule/ is pure window math: it imports lib/ and itself only',
      },
      NO_FASTIFY,
      NO_DATABASE,
      NO_PROM,
    ],
  },
  {
    files: ['src/media/**'],
    patterns: [
      everythingBut(
        ['lib', 'media'],
        ['errors'],
        'media/ sits below the modules and the HTTP layer: outside itself it imports lib/ and errors.ts only',
      ),
      NO_FASTIFY,
      NO_PROM,
    ],
  },
  {
    files: ['src/db/**'],
    patterns: [
      everythingBut(
        ['lib', 'db'],
        ['errors'],
        'db/ sits below the modules and the HTTP layer: outside itself it imports lib/ and errors.ts only',
      ),
      NO_FASTIFY,
      NO_PROM,
    ],
  },
  {
    files: ['src/http/**', 'src/schemas/**'],
    patterns: [
      climbingTo(
        ['modules'],
        [],
        'http/ and schemas/ import no module: the composition root injects what they need',
      ),
      NO_PAGES,
      NO_RUNNERS,
      NO_OPS,
      NO_PROM,
    ],
  },
  {
    // Routes -> services -> repositories -> db: a route reaches data through its service.
    // Types of rows and of the database are fine, they run nothing.
    files: ['src/modules/**/*.routes.ts'],
    patterns: [
      {
        regex: REPOSITORY,
        message: 'routes call their service, never a repository',
        allowTypeImports: true,
      },
      climbingTo(['db'], [], 'routes never touch the database: call the service', true),
      {
        regex: '^kysely$',
        message: 'routes never touch the database: call the service',
        allowTypeImports: true,
      },
      THROUGH_OTHER_FACES,
      NO_RUNNERS,
      NO_PAGES,
      NO_OPS,
      NO_PROM,
    ],
  },
  {
    // Services, repositories and every other module file know nothing of HTTP, and a
    // module reaches another module's data only through that module's service.
    files: ['src/modules/**'],
    ignores: ['src/modules/**/*.routes.ts'],
    patterns: [
      {
        ...NO_FASTIFY,
        message: 'services and repositories never import Fastify: only *.routes.ts does',
      },
      climbingTo(
        ['http'],
        [],
        'only *.routes.ts may import http/: services, repositories and schemas know no HTTP',
      ),
      {
        // `./x.repository.ts` is the module's own; climbing into a folder is another's.
        regex: '^(?:\\.\\./)+[^./][^/]*/(?:[^/]+/)*[^/]+\\.repository\\.ts$',
        message: "a module never imports another module's repository: call that module's service",
      },
      THROUGH_OTHER_FACES,
      NO_RUNNERS,
      NO_PAGES,
      NO_OPS,
      NO_PROM,
    ],
  },
  {
    // What the web apps share (sessions, CSRF, flash, forms, headers, assets, the plugin
    // set-up) serves every app alike, so it imports none of them, and no module either: what
    // a page needs of a module, the page passes in. (Its files are flat, so a climb into a
    // sibling folder of pages/ is an app.)
    files: ['src/pages/kit/**'],
    patterns: [
      {
        regex: '^\\.\\./(?:\\.\\./pages/)?(?!kit/)[^./][^/]*/',
        message: 'the kit imports no app: the apps import the kit',
      },
      climbingTo(['modules'], [], 'the kit imports no module: the app passes in what it needs'),
      ...pagePatterns('the kit'),
    ],
  },
  {
    // The web apps (pages/<app>/: the company dashboard, the workers' app, the operator
    // console) are plugins of their own, each registered by the composition root: an app
    // imports module faces, lib/, schedule/, the root vocabulary and the kit, never another
    // app. (Their files are flat, so a climb into a sibling folder of pages/ is an app.)
    files: ['src/pages/**'],
    ignores: ['src/pages/kit/**'],
    patterns: [
      {
        regex: '^\\.\\./(?:\\.\\./pages/)?(?!kit/)[^./][^/]*/',
        message: 'an app never imports another app: what the apps share lives in pages/kit/',
      },
      ...pagePatterns('an app'),
    ],
  },
  {
    // The runners call module services; the storage and HTTP layers are not theirs.
    files: ['src/dispatch/**', 'src/simulator/**'],
    patterns: [
      { regex: REPOSITORY, message: 'runners call module services, never a repository' },
      climbingTo(['http'], [], 'runners are not HTTP handlers: they never import http/'),
      THROUGH_FACES,
      NO_PAGES,
      NO_OPS,
      NO_PROM,
    ],
  },
  {
    // Health, readiness and metrics sit above the modules, beside the runners: they read
    // through module services and the db layer, never a repository, and no runner.
    files: ['src/ops/**'],
    patterns: [
      { regex: REPOSITORY, message: 'ops/ calls module services, never a repository' },
      THROUGH_FACES,
      NO_RUNNERS,
      NO_PAGES,
    ],
  },
  {
    // The composition root and the command's own helpers wire and call modules by their faces.
    files: [
      'src/app.ts',
      'src/bootstrap.ts',
      'src/main.ts',
      'src/cli/seed.ts',
      'src/cli/seed-undo.ts',
      'src/cli/seed-media.ts',
      'src/cli/seed-users.ts',
      'src/cli/seed-windows.ts',
    ],
    patterns: [
      { regex: REPOSITORY, message: 'the composition root calls module faces, never a repository' },
      THROUGH_FACES,
    ],
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'dist/',
      'sdk/dist/',
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
    // Scripts the dashboard and the workers' app serve to the browser (the console's own
    // names its globals in a comment).
    files: [
      'src/pages/company/assets/**/*.js',
      'src/pages/worker/assets/**/*.js',
      'src/pages/kit/assets/**/*.js',
    ],
    languageOptions: {
      globals: {
        document: 'readonly',
        DOMParser: 'readonly',
        fetch: 'readonly',
        HTMLElement: 'readonly',
        HTMLFormElement: 'readonly',
        navigator: 'readonly',
        window: 'readonly',
        atob: 'readonly',
        Notification: 'readonly',
      },
    },
  },
  {
    // The workers' app's service worker runs in its own global scope.
    files: ['src/pages/worker/assets/worker-sw.js'],
    languageOptions: { globals: { self: 'readonly', URL: 'readonly' } },
  },
  {
    // The MCP server is a face of the /v2 API, beside the web apps: each tool call is the
    // REST request it stands for, sent through the app, so that every rule of the API
    // applies to it. It calls no module and no database directly, and no page of the
    // web apps; Fastify and http/ are its own.
    files: ['src/mcp/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            climbingTo(
              ['modules', 'db', 'pages', 'cli'],
              ['app', 'bootstrap', 'main'],
              'the MCP server reaches the API through REST requests sent through the app, never a module or the database',
              true,
            ),
            {
              regex: '^(?:kysely|pg|better-sqlite3)$',
              message: 'the MCP server never touches the database',
            },
            NO_RUNNERS,
            NO_OPS,
            NO_PROM,
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON responses of many shapes.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: [
      'src/cli/**',
      'scripts/**',
      'bench/**',
      'bin/**',
      'test/helpers/**',
      'sdk/src/cli/**',
      'sdk/examples/**',
    ],
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
                '^(?!commander$|node:|\\./shared\\.ts$|\\./[a-z-]+\\.command\\.ts$|\\.\\./lib/cli-error\\.ts$)',
              allowTypeImports: true,
              message: 'load service code inside the action, with await import(...)',
            },
          ],
        },
      ],
    },
  },
  {
    // What differs between SQLite and PostgreSQL is chosen once in db/ (capabilities.ts:
    // row locks, grouped commits); no other code asks which database it runs on.
    files: ['src/**/*.ts'],
    ignores: ['src/db/**', 'src/bootstrap.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='dialect']",
          message: "the database is db/'s concern: use a capability of db/capabilities.ts",
        },
        {
          selector: 'BinaryExpression > Literal[value=/^(?:postgres|sqlite)$/]',
          message: "the database is db/'s concern: use a capability of db/capabilities.ts",
        },
      ],
    },
  },
  ...boundaries.map(({ files, ignores = [], patterns }) => ({
    files,
    ignores,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  })),
);

// The rules `npm run lint` (and so `make lint`) enforces on the TypeScript of the app and of the
// end-to-end tests, and on the JavaScript scripts. Type-aware: typescript-eslint reads each
// file's own tsconfig.json through the TypeScript 6 API (the root package's `typescript`, an
// alias of @typescript/typescript6), since TypeScript 7, which the workspaces compile with, has
// no such API yet.
import { readdirSync } from 'node:fs';
import path from 'node:path';

import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const src = 'app-react/src';
const features = readdirSync(path.join(import.meta.dirname, src, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// The app's layers import one way: app/ -> features/<one feature> -> components/, lib/, config/.
// A feature that needs another's code gets it moved to where its kind lives, or passed in by app/.
const boundaries = [
  ...features.map((feature) => ({
    target: `${src}/features/${feature}`,
    from: `${src}/features`,
    except: [`./${feature}`],
    message: 'A feature imports no other feature: move what both need to lib/ or components/, or pass it in from app/.',
  })),
  {
    target: `${src}/features`,
    from: `${src}/app`,
    message: 'A feature does not import the app shell: app/ passes what a feature needs.',
  },
  {
    target: ['components', 'lib', 'config', 'test', 'widget'].map((dir) => `${src}/${dir}`),
    from: [`${src}/features`, `${src}/app`],
    message: 'Shared code does not import a feature or the app shell.',
  },
];

export default defineConfig(
  // Build output, tests' output and the tools `make` installs (.tools/: the API fuzzer's Python packages).
  globalIgnores(['**/dist/', 'crates/', 'target/', 'end2end/test-results/', 'end2end/.tmp/', '.tools/']),
  {
    // The build and benchmark scripts, and this file.
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['app-react/**/*.{ts,tsx}', 'end2end/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `onClick={() => setOpen(false)}` is how React handlers are written here; braces around
      // every one would say nothing more. A void value used anywhere else is still an error.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // React ignores what an event handler returns, and a form's submit handler is async here
      // (react-hook-form's handleSubmit makes one). Promises are still checked everywhere else.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Numbers in messages and URLs read as numbers; objects, arrays and nullish values are refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // React Router's loaders and actions redirect by throwing a Response.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'lib', name: 'Response' }] }],
      // A parameter named `_x` is one a stand-in must accept to match the real signature.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['app-react/src/**/*.test.{ts,tsx}', 'app-react/src/test/**'],
    rules: {
      // Stand-ins for async APIs are async functions with nothing to await: that is what makes
      // them return a promise, and reject rather than throw, as the real ones do.
      '@typescript-eslint/require-await': 'off',
      // Vitest types its asymmetric matchers (expect.any, objectContaining, ...) as `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // In a test, a value that is missing fails the test at that line, as an assertion would.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: [`${src}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: globals.browser },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(import.meta.dirname, 'app-react/tsconfig.json') })],
      // The files whose imports import-x reads (its default is JavaScript's only): no-cycle follows
      // an import only into these, and sees no cycle through any other.
      'import-x/extensions': ['.ts', '.tsx'],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaries }],
      // No module imports, directly or through others, one that imports it: in a cycle, one module
      // runs before another it imports, and what it uses of that one at load is not there yet. A
      // type-only import does not count (it is gone from the built code); a dynamic one (import()) does.
      // Packages' own imports are not followed: their cycles are not the app's.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['end2end/**/*.ts', 'app-react/*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['end2end/**/*.ts'],
    rules: {
      // Playwright reads which fixtures a function needs from its first parameter's pattern,
      // so one that needs none is written `async ({}, ...)`.
      'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }],
    },
  },
);

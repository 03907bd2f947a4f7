// ESLint for the whole tree (run by `npm run lint`, part of `npm test`). The type-aware rules
// (promises, needless assertions) read each layer's own tsconfig through typescript-eslint's
// project service; the scripts (.mjs) get the rules that need no types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const typeAware = {
  // A promise is awaited, returned, or handed to something that handles its rejection.
  '@typescript-eslint/no-floating-promises': 'error',
  // An async function is not passed where a void callback is expected (an event handler) unless its
  // rejection is handled; JSX attributes are checked too.
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/no-unnecessary-type-assertion': 'error',
};

export default tseslint.config(
  {
    // Fixtures are the service's own files (adapters, an app's sources) as a site has them.
    ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.tmp/**', 'adapters/**', 'test/**/fixtures/**'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      ...typeAware,
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
      // A variable a closure reads before it is assigned (set once, later) stays a let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // The core logs through the pino logger its service is given; only the command-line tools print.
    files: ['core/**/*.ts'],
    ignores: ['core/cli/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // A core module that grows past this is doing two things: split it. More than four positional
    // parameters: pass an object that names them.
    files: ['core/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 350, skipBlankLines: false, skipComments: false }],
      '@typescript-eslint/max-params': ['error', { max: 4 }],
    },
  },
  {
    // Tests read the API's JSON answers untyped, as a client does, and their expectations check the
    // shape; `any` there names that instead of a cast per field.
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks and their dependency lists; the plugin's React Compiler rules are left
    // out, as the renderer is not built with the compiler.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // One alert component (shell/Alert.tsx): the same role, look and name on every page.
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='role'][value.value='alert']", message: 'Use <Alert> from renderer/shell/Alert.tsx for role="alert".' },
      ],
    },
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['renderer/shell/Alert.tsx'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // The adapter runner and the stub run in the adapter's child process as plain CommonJS, with
    // the global `log` the service gives every adapter.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, log: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

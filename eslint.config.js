// ESLint (flat config) for the JavaScript of web/, tests/, scripts/ and bench/; npm test runs it.
// Layout is Prettier's (.prettierrc.json); ESLint keeps what Prettier cannot: lines <= 120 (long
// strings of the strings tables excepted), and no module-level mutable state in a chapter or in a
// host's adapter (the state is the host's: web/src/hosts/host.js).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'test-results/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node, ...globals.worker },
    },
    rules: {
      'max-len': ['error', { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
      // the page strips control characters from tokens and links on purpose
      'no-control-regex': 'off',
    },
  },
  {
    // A chapter is data: its state lives in the host's one state object, never in its module; the
    // page, the element and embed.html keep theirs in the host too.
    files: ['web/src/chapters/**/*.js', 'web/src/hosts/**/*.js'],
    ignores: ['web/src/hosts/host.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "Program > VariableDeclaration[kind='let']", message: 'no module-level let in a chapter or host adapter: keep state in the instance' },
        { selector: "Program > VariableDeclaration[kind='var']", message: 'no module-level var in a chapter or host adapter: keep state in the instance' },
      ],
    },
  },
];

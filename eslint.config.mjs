// Lint. The layer rules of DESIGN.md §1 are checked over the import graph by
// scripts/layers.mjs (part of `npm run lint` and of the unit tests).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', 'bench/results/**', 'dist-vsix/**', '**/*.svelte'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod'`: the `z` object pulls every zod locale into the bundles.",
        },
      ],
    },
  },
  { files: ['webview/**/*.ts'], languageOptions: { globals: globals.browser } },
  // Fixture extensions VS Code loads as they are: CommonJS, `require('vscode')`.
  { files: ['test/fixtures/**/*.js'], languageOptions: { sourceType: 'commonjs', globals: globals.node }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Functions these helpers pass to page.evaluate run in the browser.
  { files: ['test/webview/**/*.mjs', 'bench/cases/b09-*.mjs', 'bench/cases/b10-*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);

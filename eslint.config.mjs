// Lint, including the layer rules of DESIGN.md §1 (test/unit/layers.test.ts checks
// the same rules over the import graph, so a violation fails both).
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', 'bench/results/**', '**/*.svelte'] },
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
  {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core and src/cli never import vscode (DESIGN.md §1).' }],
          patterns: [{ group: ['**/extension/**', '**/webview/**'], message: 'core may import only core and shared.' }],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'shared code and the webview never import vscode (DESIGN.md §1).' },
            ...nodeBuiltins.map((name) => ({ name, message: 'shared code and the webview run in a browser: no Node modules.' })),
          ],
          patterns: [{ group: ['**/core/**', '**/extension/**', '**/cli/**'], message: 'shared and webview may import only shared.' }],
        },
      ],
    },
  },
);

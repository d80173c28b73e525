import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'src/core, src/sandbox and src/cli must run in plain Node: pass what you need in from the extension.' }],
  }],
};

// The extension's layers (docs/architecture.md): commands use features; features never use commands.
// Inside features, state/ and shared/ are the bottom; the services (connection/, sandbox/, log/) use
// them; each UI folder uses those but never another UI folder's internals.
const NO_COMMANDS = { group: ['**/commands/*'], message: 'src/features must not import src/commands: move what both need into src/features/shared or src/features/state.' };
const UI_FOLDERS = ['batch', 'diagnostics', 'explorer', 'hovers', 'quickFixes', 'requestFiles', 'results', 'statusBar'];
const SERVICE_FOLDERS = ['connection', 'sandbox', 'log'];
const notFrom = (folders, why) => ({ group: folders.map((f) => `../${f}/*`), message: why });
const featureLayers = [
  {
    files: ['src/features/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_COMMANDS] }] },
  },
  ...UI_FOLDERS.map((folder) => ({
    files: [`src/features/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [NO_COMMANDS, notFrom(UI_FOLDERS.filter((f) => f !== folder), 'A UI feature folder must not reach into another one: move what both need into src/features/shared or src/features/state.')],
      }],
    },
  })),
  {
    files: ['src/features/state/**/*.ts', 'src/features/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [NO_COMMANDS, notFrom([...UI_FOLDERS, ...SERVICE_FOLDERS], 'src/features/state and src/features/shared are the bottom layer: they import only src/core and each other.')],
      }],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
    },
  },
  { files: ['src/core/**/*.ts', 'src/sandbox/**/*.ts', 'src/cli/**/*.ts'], rules: noVscode },
  ...featureLayers,
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node } },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

// Runs the same integration suite through @vscode/test-electron, for desktops that can download VS Code.
import { resolve, join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { errorMessage } from './built.mjs';

const root = resolve(import.meta.dirname, '..');
try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out', 'test', 'integration', 'index.js'),
    launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  });
} catch (err) {
  console.error(`Integration tests failed: ${errorMessage(err)}`);
  process.exit(1);
}

// Entry of the Restricted Mode suite (scripts/run-vscode-tests.mjs restricted): the extension under
// development in a folder VS Code does not trust.
import { runHostSuite } from '../hostSuite';

export function run(): Promise<void> {
  return runHostSuite(__dirname, 'restricted');
}

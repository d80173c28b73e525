// Entry of the probe extension (scripts/run-vscode-tests.mjs production): runs every *.test.js
// beside this file in the host where the packaged .vsix is installed.
import { runHostSuite } from '../hostSuite';

export function run(): Promise<void> {
  return runHostSuite(__dirname, 'production');
}

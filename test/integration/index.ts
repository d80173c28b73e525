// Entry the extension host loads (extensionTestsPath): runs every *.test.js beside this file.
import { runHostSuite } from '../hostSuite';

export function run(): Promise<void> {
  return runHostSuite(__dirname, 'integration');
}

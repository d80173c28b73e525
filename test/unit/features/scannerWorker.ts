// The code scanner's worker as the unit tests use it: the bundle `npm run build` makes
// (dist/scanWorker.js), one scanner per test, stopped after it.
import { join } from 'node:path';
import { CodeScanner } from '../../../src/features/shared/codeScanner';

export const WORKER = join(__dirname, '..', '..', '..', '..', 'dist', 'scanWorker.js');

/** A fresh scanner for each test of the suite (call inside `describe`). */
export function useScanner(): () => CodeScanner {
  let scanner: CodeScanner | undefined;
  beforeEach(() => {
    scanner = new CodeScanner(WORKER);
  });
  afterEach(async () => {
    await scanner?.dispose();
  });
  return () => {
    if (!scanner) throw new Error('no scanner outside a test');
    return scanner;
  };
}

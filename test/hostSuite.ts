// The entry an extension host loads as extensionTestsPath (the same shape @vscode/test-electron
// uses): runs every *.test.js in the suite's folder with mocha, and rejects when any fails.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export async function runHostSuite(folder: string, suite: string): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: join(__dirname, '..', '..', 'test', 'summary-reporter.cjs'),
    reporterOptions: { suite },
  });
  const grep = process.env.BIZDATA_TEST_GREP;
  if (grep) mocha.grep(grep);
  console.log(`[${suite}] extension host: Node ${process.version} (${process.platform}/${process.arch})`);
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(join(folder, f));
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} ${suite} test(s) failed.`);
}

// Entry the extension host loads (extensionTestsPath): runs every *.test.js beside this file.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: join(__dirname, '..', '..', '..', 'test', 'summary-reporter.cjs'),
    reporterOptions: { suite: 'integration' },
  });
  const grep = process.env.BIZDATA_TEST_GREP;
  if (grep) mocha.grep(grep);
  console.log(`[integration] extension host: Node ${process.version} (${process.platform}/${process.arch})`);
  const files = readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(join(__dirname, f));
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed.`);
}

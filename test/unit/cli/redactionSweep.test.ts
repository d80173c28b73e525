// Issue 25's "done when": every request file of the repository (examples/ and those under test/ that
// parse) run with `bizdata send` and `bizdata test --junit --json` against an echo host that adds the
// request, its token and the last sign-in's credentials to every answer; no output holds one of the
// run's credentials or tokens in any encoding (test/secretEncodings.ts).
import * as assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { requestFileText } from '../../../src/core/requests/requestText';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { echoHost, type EchoHost } from '../../echoHost';
import { assertNoSecretIn } from '../../secretEncodings';
import { cliRuns } from './cliHarness';
import { dataFileBeside } from '../../../src/cli/dataFileBeside';
import { oddConfig, oddEnv, secretsOf } from './oddCredentials';

const ROOT = join(__dirname, '../../../..');
const FIXTURES = join(ROOT, 'test/fixtures/sandbox');

/** Every *.http file under examples/ and test/ whose text parses without an error. */
async function requestFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const folder of ['examples', 'test']) {
    const entries = await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true });
    for (const e of entries) {
      if (!e.isFile() || !e.name.endsWith('.http')) continue;
      const path = join(e.parentPath, e.name);
      const parsed = parseRequestFile(requestFileText(await readFile(path)));
      if (!parsed.problems.some((p) => p.severity === 'error') && parsed.requests.length > 0) out.push(path);
    }
  }
  return out.sort();
}

describe('redaction sweep (issue 25): every request file of the repository against an echo host', () => {
  let dir = '';
  let sb: RunningSandbox | undefined;
  let host: EchoHost | undefined;
  const { run } = cliRuns('bizdata-sweep-', (d) => (dir = d));

  afterEach(async () => {
    await host?.close();
    await sb?.close();
    host = sb = undefined;
  });

  it('shows none of the canary credentials or tokens in stdout, stderr, JUnit or JSON, in any encoding', async function () {
    this.timeout(120_000);
    const files = await requestFiles();
    assert.ok(files.length >= 4, `request files found: ${files.map((f) => relative(ROOT, f)).join(', ')}`);
    sb = await startSandbox({ port: 0, config: oddConfig(), fixturesDir: FIXTURES });
    host = await echoHost(sb.url);
    const outputs: Array<{ name: string; text: string }> = [];
    let echoed = 0;
    for (const file of files) {
      const name = relative(ROOT, file);
      // A data-driven file (a data file beside it) runs once per row: its answers go to the results file, searched too.
      const results = (await dataFileBeside(file)) === undefined ? undefined : join(dir, `${basename(file)}.results.jsonl`);
      const sent = await run(['send', file, '--confirm-notes', ...(results ? ['--out', results] : [])], oddEnv(host.url), 60_000);
      assert.notEqual(sent.code, 2, `${name}: ${sent.stderr}`);
      const answers = results ? await readFile(results, 'utf8') : sent.stdout;
      if (results) outputs.push({ name: `${name}: send results`, text: answers });
      echoed += answers.match(/"echo"/g)?.length ?? 0;
      const junit = join(dir, 'report.xml');
      const tested = await run(['test', file, '--confirm-notes', '--junit', junit, '--json'], oddEnv(host.url), 60_000);
      assert.ok(tested.code === 0 || tested.code === 1, `${name}: exit ${tested.code}: ${tested.stderr}`);
      JSON.parse(tested.stdout);
      outputs.push(
        { name: `${name}: send stdout`, text: sent.stdout },
        { name: `${name}: send stderr`, text: sent.stderr },
        { name: `${name}: test --json stdout`, text: tested.stdout },
        { name: `${name}: test stderr`, text: tested.stderr },
        { name: `${name}: JUnit`, text: await readFile(junit, 'utf8') },
      );
    }
    // A batch's results file holds each whole answer: searched too (issue 32: redacted like every output).
    const ips = join(dir, 'ips.txt');
    await writeFile(ips, '203.0.113.7\n203.0.113.8\n');
    const batchOut = join(dir, 'batch.jsonl');
    const batch = await run(['batch', ips, '--out', batchOut], oddEnv(host.url), 60_000);
    assert.notEqual(batch.code, 2, batch.stderr);
    const batchLines = await readFile(batchOut, 'utf8');
    echoed += batchLines.match(/"echo"/g)?.length ?? 0;
    outputs.push({ name: 'batch results', text: batchLines }, { name: 'batch stdout', text: batch.stdout }, { name: 'batch stderr', text: batch.stderr });
    // The answers printed did carry the reflection: the search below looks where the secrets were put.
    assert.ok(echoed >= files.length + 2, `answers with the echo: ${echoed}`);
    assertNoSecretIn(outputs, secretsOf(host));
  });
});

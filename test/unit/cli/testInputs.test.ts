// `bizdata test` reads a request file as `bizdata send` does: body files sent byte for byte, `# @disabled`
// skipped, `# @prompt` answered by --var, `# @note` refused when no one can confirm it, the environment
// only where allowed, and a curl block with its `??` assertions. Against the real sandbox behind a
// recording relay (recordingRelay.ts), so what reached the service is checked, not what the CLI says.
import * as assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary } from '../core/harness';
import { canaryEnv, runCli, type Run } from './cliHarness';
import { useEchoRelay } from './echoRelay';

describe('bizdata test: body files, # @disabled, # @prompt, # @note, $processEnv and curl blocks (recording relay, real sandbox)', function () {
  this.timeout(60_000);
  const outputs: string[] = [];
  const at = useEchoRelay('bizdata-test-inputs-');

  after(() => assertNoCanary(outputs));

  const test = (args: readonly string[], env: Record<string, string> = {}): Promise<Run> => runCli(['test', ...args], { ...canaryEnv(at.relay.url), ...env }, at.dir, outputs, 30_000);

  it('sends a < ./file body byte for byte, skips # @disabled, answers # @prompt from --var, and judges a curl block by its ?? lines', async () => {
    const work = join(at.dir, 'work');
    await mkdir(work);
    const body = Buffer.from('{\r\n  "id": "{{kept}}",\r\n  "name": "São Paulo"\r\n}\n');
    await writeFile(join(work, 'body.json'), body);
    const file = join(work, 'inputs.bizdata.http');
    await writeFile(
      file,
      [
        '### file',
        'POST {{baseUrl}}/v1/echo/file',
        'Content-Type: application/json',
        '',
        '< ./body.json',
        '',
        '?? status == 200',
        '',
        '### never',
        '# @disabled',
        'POST {{baseUrl}}/v1/echo/disabled',
        '',
        '?? status == 999',
        '',
        '### asked',
        '# @prompt customer The customer id',
        'POST {{baseUrl}}/v1/echo/{{customer}}',
        '',
        'x',
        '',
        '### pasted',
        "curl -X POST '{{baseUrl}}/v1/echo/curl' \\",
        "  -H 'Content-Type: text/plain' \\",
        "  --data-raw 'from curl'",
        '',
        '?? status == 200',
        '# the sandbox route answers {"ok": true}',
        '?? body $.ok exists',
        '?? header content-type includes json',
        '',
      ].join('\n'),
    );

    const noVar = await test([file]);
    assert.equal(noVar.code, 2, noVar.stderr);
    assert.match(noVar.stderr, /asks for customer \("# @prompt" at line 16\)\. Give --var customer=VALUE/);
    assert.equal(at.relay.bytes(), 0, 'nothing sent without the prompt answered');

    const r = await test([file, '--var', 'customer=42', '--json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /never: skipped \(# @disabled\)/);
    const sent = at.echoes();
    assert.deepEqual(
      sent.map((e) => e.line),
      ['POST /v1/echo/file HTTP/1.1', 'POST /v1/echo/42 HTTP/1.1', 'POST /v1/echo/curl HTTP/1.1'],
    );
    assert.ok(sent[0].body.equals(body), `the body file as it is on disk, got ${JSON.stringify(sent[0].body.toString('latin1'))}`);
    assert.equal(sent[2].body.toString('utf8'), 'from curl');
    const doc = JSON.parse(r.stdout) as { summary: { requests: number; passed: number }; files: Array<{ requests: Array<{ name: string; line: number; verdict: string; assertions: Array<{ line: number; assertion: string; passed: boolean }> }> }> };
    assert.deepEqual(doc.summary, { files: 1, requests: 3, passed: 3, failed: 0, errors: 0 });
    const curl = doc.files[0].requests[2];
    assert.deepEqual([curl.name, curl.line, curl.verdict], ['pasted', 22, 'passed']);
    assert.deepEqual(
      curl.assertions.map((a) => [a.line, a.assertion, a.passed]),
      [
        [26, 'status == 200', true],
        [28, 'body $.ok exists', true],
        [29, 'header content-type includes json', true],
      ],
    );
  });

  it('fails a curl block whose ?? assertion does not hold, at the assertion line', async () => {
    const file = join(at.dir, 'curl.bizdata.http');
    await writeFile(file, ["curl -X POST '{{baseUrl}}/v1/echo/c' --data-raw 'a'", '?? status == 201', ''].join('\n'));
    const r = await test([file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`^FAIL ${file}:1 request 1: POST .* -> 200 `, 'm'));
    assert.match(r.stdout, new RegExp(`^  ${file}:2: status: expected == 201, actual 200$`, 'm'));
    assert.equal(at.echoes().length, 1);
  });

  it('refuses a # @note request without --confirm-notes when stdin is no terminal: exit 2, nothing sent', async () => {
    const file = join(at.dir, 'note.bizdata.http');
    await writeFile(file, ['### first', 'POST {{baseUrl}}/v1/echo/first', '', 'a', '', '### careful', '# @note Writes data', 'POST {{baseUrl}}/v1/echo/noted', '', 'b', ''].join('\n'));
    const refused = await test([file]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /note\.bizdata\.http:8 is marked "# @note".*--confirm-notes/);
    assert.equal(at.relay.bytes(), 0, 'nothing sent, not even the request before it, nor a sign-in');
    const ok = await test([file, '--confirm-notes']);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.deepEqual(
      at.echoes().map((e) => e.line),
      ['POST /v1/echo/first HTTP/1.1', 'POST /v1/echo/noted HTTP/1.1'],
    );
  });

  it('refuses {{$processEnv X}} unless --allow-env X, saying "bizdata test --allow-env X"', async () => {
    const file = join(at.dir, 'env.bizdata.http');
    await writeFile(file, ['POST {{baseUrl}}/v1/echo/env', 'Content-Type: text/plain', '', 'region={{$processEnv REGION}}', ''].join('\n'));
    const refused = await test([file], { REGION: 'eu-west' });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: `));
    assert.match(refused.stderr, /run bizdata test with --allow-env REGION/);
    assert.doesNotMatch(refused.stdout + refused.stderr, /eu-west/);
    assert.equal(at.relay.bytes(), 0, 'nothing sent');
    const ok = await test([file, '--allow-env', 'REGION'], { REGION: 'eu-west' });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.deepEqual(
      at.echoes().map((e) => e.body.toString('utf8')),
      ['region=eu-west'],
    );
  });
});

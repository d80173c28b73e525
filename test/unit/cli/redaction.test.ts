// Issue 25, findings 1, 2 and 9: a request file whose host reflects the request cannot make
// `bizdata test` or `bizdata send` print a credential or a token, in any encoding, in stdout, stderr,
// the JUnit file or the JSON report. The credentials hold characters that every encoding changes, the
// host is an echo host of the test's own in front of the real sandbox (test/echoHost.ts), and the
// file chains the echoed values through `{{%name}}` twice, as an attacker's pull request would.
import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WITHHELD } from '../../../src/core/requests/assertions';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { echoHost, type EchoHost } from '../../echoHost';
import { oddConfig, oddEnv, secretsOf } from './oddCredentials';
import { assertNoSecretIn } from '../../secretEncodings';
import { cliRuns } from './cliHarness';
import { readJunit } from './junitSchema';

/** A secret `# @prompt` answer, given with --var. */
const PROMPTED = 'oddPROMPT/+=&% "<\'>?#91aa07';

const REFLECTING_FILE = [
  '@v = {{hb.response.headers.x-echo-auth}}',
  '@w = {{%v}}',
  '@p = {{hb.response.headers.x-echo-pwd}}',
  '@q = {{%p}}',
  '',
  '### A: the host reflects the bearer token, the Basic sign-in and a secret prompt answer',
  '# @name ha',
  '# @interface a',
  '# @prompt apiSecret',
  'POST {{baseUrl}}/echo/a?s={{%apiSecret}}',
  'Content-Type: application/json',
  '',
  '{"secret": "{{apiSecret}}"}',
  '',
  '?? body $.echo.authorization == x',
  '?? body $.echo.signIn.basic == x',
  '?? header x-echo-auth == x',
  '?? body $.echo.url == x',
  '?? body == x',
  '',
  '### B: the raw token and the password',
  '# @name hb',
  '# @interface b',
  'GET {{legacyUrl}}/echo/b',
  '',
  '?? body $.echo.authorization == x',
  '?? body $.echo.signIn.password == x',
  '?? header x-echo-pwd == x',
  '',
  '### The echoed values, percent-encoded twice',
  '# @name chained',
  '# @interface b',
  'GET {{legacyUrl}}/echo/c?SubjectName={{%w}}&Other={{%q}}',
  '',
  '?? body $.echo.url == x',
];

interface JsonAssertion {
  assertion: string;
  passed: boolean;
  expected: string;
  actual: string;
}

describe('redaction at the edge (issue 25): echoed secrets never reach an output', () => {
  let dir = '';
  let sb: RunningSandbox | undefined;
  let host: EchoHost | undefined;
  const { run } = cliRuns('bizdata-redaction-', (d) => (dir = d));

  beforeEach(async () => {
    sb = await startSandbox({ port: 0, config: oddConfig() });
    host = await echoHost(sb.url);
  });

  afterEach(async () => {
    await host?.close();
    await sb?.close();
    host = sb = undefined;
  });

  it('bizdata test --junit --json: each echoed secret is withheld from the assertion and absent from every output in every encoding', async () => {
    const h = host as EchoHost;
    const file = join(dir, 'reflect.bizdata.http');
    await writeFile(file, REFLECTING_FILE.join('\n'));
    const junit = join(dir, 'report.xml');
    const r = await run(['test', file, '--junit', junit, '--json', '--var', `apiSecret=${PROMPTED}`], oddEnv(h.url));
    assert.equal(r.code, 1, r.stderr);
    const xml = await readFile(junit, 'utf8');
    const report = JSON.parse(r.stdout) as { files: Array<{ requests: Array<{ name: string; url: string; assertions: JsonAssertion[] }> }> };
    const [ha, hb, chained] = report.files[0].requests;
    // The file ran as the attacker meant: every value was echoed, and each assertion says what became of it.
    const actual = (req: { assertions: JsonAssertion[] }, text: string): string => req.assertions.find((a) => a.assertion === text)?.actual ?? 'none';
    for (const text of ['body $.echo.authorization == x', 'body $.echo.signIn.basic == x', 'header x-echo-auth == x', 'body $.echo.url == x', 'body == x']) assert.equal(actual(ha, text), WITHHELD, text);
    for (const text of ['body $.echo.authorization == x', 'body $.echo.signIn.password == x', 'header x-echo-pwd == x']) assert.equal(actual(hb, text), WITHHELD, text);
    // A chained value is the answer's own value (core/run/chain.ts): one that holds a secret of the run
    // refuses its request at its line, so the echoed token and password go nowhere, not even as a placeholder.
    const refused = chained as unknown as { verdict: string; message?: string; line: number };
    assert.equal(refused.verdict, 'error');
    assert.match(refused.message ?? '', /holds a secret of this run .* a request never sends one taken from an answer/);
    assert.equal(h.paths().filter((path) => path.startsWith('/echo/c')).length, 0, 'the chained request was not sent');
    // The withheld values are said to be so in the lines for people and in JUnit too.
    assert.ok((await readJunit(xml)).length === 1);
    assert.ok(xml.includes(WITHHELD), xml);
    assert.match(chained.url, /SubjectName=/);
    assertNoSecretIn(
      [
        { name: 'stdout', text: r.stdout },
        { name: 'stderr', text: r.stderr },
        { name: 'JUnit', text: xml },
      ],
      secretsOf(h, { prompted: PROMPTED }),
    );
    const lines = await run(['test', file, '--var', `apiSecret=${PROMPTED}`], oddEnv(h.url));
    assert.equal(lines.code, 1, lines.stderr);
    assert.ok(lines.stdout.includes(`actual ${WITHHELD}`), lines.stdout);
    assertNoSecretIn(
      [
        { name: 'stdout (lines)', text: lines.stdout },
        { name: 'stderr (lines)', text: lines.stderr },
      ],
      secretsOf(h, { prompted: PROMPTED }),
    );
  });

  it('bizdata send prints the echoing answers with every secret of the run redacted, in every encoding', async () => {
    const h = host as EchoHost;
    const file = join(dir, 'reflect.bizdata.http');
    // Without its assertions, which `bizdata send` judges as `bizdata test` does: every request is sent.
    await writeFile(file, REFLECTING_FILE.filter((l) => !l.startsWith('??')).join('\n'));
    const r = await run(['send', file, '--var', `apiSecret=${PROMPTED}`], oddEnv(h.url));
    // Two answers were printed, each with the reflection in it; the third request would send what they echoed, and is refused at its line.
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout.match(/"echo"/g)?.length, 2, r.stdout);
    assert.ok(r.stdout.includes('<redacted>'), r.stdout);
    assert.match(r.stderr, /reflect\.bizdata\.http:25: \{\{hb\.response\.headers\.x-echo-auth\}\} holds a secret of this run/);
    // With them, the first request does not pass (its assertions fail): the run ends there, exit 1,
    // each failed assertion at its line with the secret it would show withheld.
    await writeFile(file, REFLECTING_FILE.join('\n'));
    const judged = await run(['send', file, '--var', `apiSecret=${PROMPTED}`], oddEnv(h.url));
    assert.equal(judged.code, 1, judged.stderr);
    assert.equal(judged.stdout.match(/"echo"/g)?.length, 1, judged.stdout);
    assert.ok(judged.stderr.includes(`reflect.bizdata.http:15: body $.echo.authorization: expected == x, actual ${WITHHELD}`), judged.stderr);
    assertNoSecretIn(
      [
        { name: 'stdout', text: r.stdout },
        { name: 'stderr', text: r.stderr },
        { name: 'stdout (judged)', text: judged.stdout },
        { name: 'stderr (judged)', text: judged.stderr },
      ],
      secretsOf(h, { prompted: PROMPTED }),
    );
  });
});

// The command line shows what the service said (its own text, found by the recogniser) before the
// catalog's meaning and action, in every place a result code is shown; and stops, saying when to come
// back, when the service asks to be left alone for longer than the client waits. The answers are the
// real service's texts, played by the sandbox's `respond` fault over HTTP.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCode } from '../../../src/core/codes/codes';
import { assertNoCanary, failed, sandbox, testClient, type Sandbox } from '../core/harness';
import { canaryEnv, runCli, type Run } from './cliHarness';

const UNAUTHORISED = 'You are not currently authorised to access this product';
const INVALID = 'The given request is invalid.';
const INTERNAL = 'Internal D&B system error.';

/** The answers as the service sends them, by code. */
const ANSWERS = {
  '00041': { status: 401, path: '/v1/duns-search', body: { error: { errorCode: '00041', errorMessage: UNAUTHORISED } } },
  CM001: { status: 400, path: '/V4.0/organizations', body: { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: 'CM001', ResultText: INVALID } } } },
  CM004: { status: 500, path: '/V4.0/organizations', body: { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: 'CM004', ResultText: INTERNAL } } } },
} as const;

type Code = keyof typeof ANSWERS;

const ORG = ['org', '--country', 'US', '--name', 'Example Corp'];
const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/;

/** The failure block printFailure writes: the service's words, then the catalog's meaning, then the action. */
function failureBlock(code: Code, advice = describeCode(code)?.action ?? ''): RegExp {
  const said = { '00041': UNAUTHORISED, CM001: INVALID, CM004: INTERNAL }[code];
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\n {2}${escape(said)}\\n {2}Meaning: ${escape(describeCode(code)?.meaning ?? '')}\\n {2}What to do: ${escape(advice)}`);
}

describe("bizdata command line: the service's own words first", () => {
  let sb: Sandbox;
  let dir: string;
  const outputs: string[] = [];
  const run = (args: string[]): Promise<Run> => runCli(args, canaryEnv(sb.url), dir, outputs);
  /** The fault that makes the sandbox answer `code` as the service does, `count` times. */
  const answer = (code: Code, count = 1): Promise<unknown> => sb.admin('POST', 'faults', { type: 'respond', ...ANSWERS[code], count });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-words-'));
    sb = await sandbox();
  });

  afterEach(async () => {
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  });

  after(() => assertNoCanary(outputs));

  it('ip, org, token and send print the answer\'s own text, then the meaning and the action', async () => {
    await answer('00041', 2);
    const ip = await run(['ip', '203.0.113.7']);
    assert.equal(ip.code, 3, ip.stderr);
    assert.match(ip.stderr, /^bizdata: auth failure \(00041, HTTP 401\)/);
    assert.match(ip.stderr, failureBlock('00041', 'A new token was obtained and the service refused it as well: contact support.'));
    assert.doesNotMatch(ip.stderr, /Unauthorized/);

    await answer('CM001');
    const org = await run(ORG);
    assert.equal(org.code, 1, org.stderr);
    assert.match(org.stderr, failureBlock('CM001'));
    assert.doesNotMatch(org.stderr, /Invalid request/);

    await sb.admin('POST', 'faults', { type: 'respond', ...ANSWERS.CM004, path: '/Authentication', count: 1 });
    const token = await run(['token', '--interface', 'b']);
    assert.equal(token.code, 1, token.stderr);
    assert.match(token.stderr, failureBlock('CM004'));
    assert.doesNotMatch(token.stderr, /Internal error/);

    const file = join(dir, 'orgs.bizdata.http');
    await writeFile(file, '# @interface b\nGET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true&MatchTypeText=Advanced\n');
    await answer('CM004');
    const send = await run(['send', file]);
    assert.equal(send.code, 1, send.stderr);
    assert.match(send.stderr, failureBlock('CM004'));
  });

  it('a batch stopped by a code says what the service said, with the meaning; its lines keep both', async () => {
    await answer('00041', 2);
    const input = join(dir, 'ips.txt');
    const out = join(dir, 'out.jsonl');
    await writeFile(input, '203.0.113.1\n203.0.113.2\n');
    const r = await run(['batch', input, '--out', out, '--concurrency', '1']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, new RegExp(`the batch stopped: 00041 ${UNAUTHORISED}\\n {2}Meaning: ${describeCode('00041')?.meaning}\\n {2}What to do: `));
    const [line] = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { error: { text: string; meaning: string } });
    assert.deepEqual([line.error.text, line.error.meaning], [UNAUTHORISED, describeCode('00041')?.meaning]);
    assert.equal((JSON.parse(r.stdout) as { stoppedBy: { text: string } }).stoppedBy.text, UNAUTHORISED);
  });

  it('check and explain --answer read saved answers of the service with its own words', async () => {
    // Saved as a client receives them from the sandbox over HTTP.
    const t = testClient(sb.url);
    const saved: Record<string, unknown> = {};
    try {
      await answer('00041', 2);
      saved['00041'] = failed(await t.client.lookupIp({ ip: '203.0.113.7' })).body;
      for (const code of ['CM001', 'CM004'] as const) {
        await answer(code);
        saved[code] = failed(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' })).body;
      }
    } finally {
      await t.client.dispose();
    }
    const file = join(dir, 'answers.json');
    await writeFile(file, JSON.stringify(saved, null, 2));
    const checked = await run(['check', file]);
    assert.equal(checked.code, 1);
    const lines = checked.stdout.trim().split('\n');
    const said = { '00041': UNAUTHORISED, CM001: INVALID, CM004: INTERNAL } as const;
    assert.equal(lines.length, 3);
    for (const [i, code] of (['00041', 'CM001', 'CM004'] as const).entries()) {
      const info = describeCode(code);
      assert.ok(lines[i].endsWith(`: error ${code}: ${said[code]} — ${info?.meaning} ${info?.action}`), lines[i]);
    }
    const json = JSON.parse((await run(['check', file, '--json'])).stdout) as Array<{ code: string; text: string; meaning: string }>;
    assert.deepEqual(json.map((f) => [f.code, f.text, f.meaning]), (['00041', 'CM001', 'CM004'] as const).map((c) => [c, said[c], describeCode(c)?.meaning]));

    const explained = await run(['explain', '--answer', file]);
    assert.equal(explained.code, 0, explained.stderr);
    assert.match(explained.stdout, new RegExp(`answers\\.json:\\d+:\\d+: 00041: Interface A code, from the service's own documentation \\(not in the specification\\); HTTP 401\\n {2}The service said: ${UNAUTHORISED}\\n {2}Catalog text: Unauthorized\\n {2}Meaning: `));
    assert.match(explained.stdout, /The service said: The given request is invalid\.\n {2}Catalog text: Invalid request\n/);
    assert.match(explained.stdout, /The service said: Internal D&B system error\.\n {2}Catalog text: Internal error\n/);
    const explainedJson = JSON.parse((await run(['explain', '--answer', file, '--json'])).stdout) as Array<{ code: string; serviceText: string; catalogText: string }>;
    assert.deepEqual(explainedJson.map((e) => [e.code, e.serviceText, e.catalogText]), [['00041', UNAUTHORISED, 'Unauthorized'], ['CM001', INVALID, 'Invalid request'], ['CM004', INTERNAL, 'Internal error']]);

    // With no answer, only the catalog speaks.
    const code = await run(['explain', '00041']);
    assert.match(code.stdout, /\n {2}Text: Unauthorized\n/);
    const none = join(dir, 'none.json');
    await writeFile(none, '{"inquiryDetail": {}}');
    assert.equal((await run(['explain', '--answer', none])).code, 1);
    assert.equal((await run(['explain', '--answer', join(dir, 'missing.json')])).code, 2);
    assert.equal((await run(['explain', 'CM001', '--answer', file])).code, 2);
  });

  it("a code of the specification keeps its text, with the service's other words beside it: failure, check, explain", async () => {
    const expired = { status: 401, path: '/v1/duns-search', body: { error: { errorCode: '00040', errorMessage: 'Unauthorized' } } };
    await sb.admin('POST', 'faults', { type: 'respond', ...expired, count: 2 });
    const spec = describeCode('00040')!;
    const ip = await run(['ip', '203.0.113.7']);
    assert.equal(ip.code, 3, ip.stderr);
    assert.match(ip.stderr, /\n {2}The access token in use has expired\. The service said: "Unauthorized"\n {2}Meaning: /);
    const file = join(dir, 'expired.json');
    await writeFile(file, JSON.stringify(expired.body));
    const checked = await run(['check', file]);
    assert.ok(checked.stdout.trim().endsWith(`warning 00040: The access token in use has expired. The service said: "Unauthorized" — ${spec.meaning} ${spec.action}`), checked.stdout);
    const [finding] = JSON.parse((await run(['check', file, '--json'])).stdout) as Array<{ text: string; alsoSaid: string }>;
    assert.deepEqual([finding.text, finding.alsoSaid], [spec.text, 'Unauthorized']);
    const explained = await run(['explain', '--answer', file]);
    assert.match(explained.stdout, /\n {2}Specification's text: The access token in use has expired\.\n {2}The service said: Unauthorized\n {2}Meaning: /);
  });

  it('explain describes the codes public clients show: 00004, 10001-10003, 40105', async () => {
    for (const code of ['00004', '10001', '10002', '10003', '40105']) {
      const r = await run(['explain', code]);
      assert.equal(r.code, 0, code);
      const info = describeCode(code);
      assert.match(r.stdout, new RegExp(`^${code}: Interface A code, from the service's own documentation \\(not in the specification\\); HTTP ${info?.status}\\n`));
      assert.ok(r.stdout.includes(`Meaning: ${info?.meaning}`) && r.stdout.includes(`What to do: ${info?.action}`), r.stdout);
    }
  });

  it('a Retry-After of 120 s stops a lookup at once, saying when to come back (time and wait)', async () => {
    await sb.admin('POST', 'faults', { type: 'respond', status: 429, headers: { 'Retry-After': 120 }, body: { error: { errorCode: '00045', errorMessage: 'Too Many Requests' } }, path: '/v1/duns-search', count: 1 });
    const started = Date.now();
    const r = await run(['ip', '203.0.113.7']);
    // Waiting the 120 s would outlast this test's 20 s timeout: the lookup stopped instead.
    assert.equal(r.code, 4, r.stderr);
    const at = new RegExp(`What to do: Try again after (${ISO_TIME.source}) \\(in 2 minutes\\)`).exec(r.stderr);
    assert.ok(at, r.stderr);
    const when = Date.parse(at[1]);
    assert.ok(when >= started + 119_000 && when <= Date.now() + 121_000, at[1]);
    assert.equal((await sb.customer()).resultCodes['fault:respond'], 1, 'sent once, not retried');
  });

  it('a batch meeting a Retry-After of 120 s stops resumably, saying when to come back; a re-run resumes', async () => {
    const input = join(dir, 'ips.txt');
    const out = join(dir, 'out.jsonl');
    await writeFile(input, '203.0.113.1\n203.0.113.2\n203.0.113.3\n');
    await sb.admin('POST', 'faults', { type: 'respond', status: 429, headers: { 'Retry-After': 120 }, body: 'Too Many Requests', path: '/v1/duns-search', count: 1 });
    const r = await run(['batch', input, '--out', out, '--concurrency', '1']);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, new RegExp(`the batch stopped: Too Many Requests\\n {2}What to do: Try again after ${ISO_TIME.source} \\(in 2 minutes\\)`));
    const summary = JSON.parse(r.stdout) as { done: number; stoppedBy: { comeBackAt: string; status: number } };
    assert.equal(summary.done, 1);
    assert.equal(summary.stoppedBy.status, 429);
    assert.match(summary.stoppedBy.comeBackAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const again = await run(['batch', input, '--out', out, '--concurrency', '1']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual((({ skipped, ok }) => [skipped, ok])(JSON.parse(again.stdout) as { skipped: number; ok: number }), [0, 3]);
  });
});

// `?? schema` and `?? snapshot` through `bizdata test` against the real sandbox (issue 36): a schema
// that holds and one that fails naming the JSON pointer and the rule, a schema file missing or outside
// the request file's folder refused at its line before anything is sent; a snapshot written by the
// first run, compared by the next, failing with the paths that differ, rewritten by
// --update-snapshots, volatile values left out, a missing one failing in CI, links refused, and no
// secret of the run in a snapshot even when the answer echoes every one of them.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { echoHost, type EchoHost } from '../../echoHost';
import { assertNoSecretIn } from '../../secretEncodings';
import type { Sandbox } from '../core/harness';
import { canaryEnv, cliRuns, sandboxRuns } from './cliHarness';
import { oddConfig, oddEnv, secretsOf } from './oddCredentials';

const IP = 'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard';
const PRIVATE_IP = 'GET {{baseUrl}}/v1/duns-search/ip/10.1.2.3?view=standard';
const ORG = 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true&MatchTypeText=Advanced';
/** Not CI: a missing snapshot is written (CI runs these tests with CI=true). */
const HERE = { CI: '' };

const SCHEMA = {
  type: 'object',
  required: ['inquiryDetail', 'candidatesMatchedQuantity', 'matchCandidates'],
  properties: {
    transactionDetail: { type: 'object', properties: { transactionTimestamp: { type: 'string', format: 'date-time' } } },
    candidatesMatchedQuantity: { type: 'integer', minimum: 1 },
    matchCandidates: {
      type: 'array',
      items: { type: 'object', required: ['organization'], properties: { organization: { type: 'object', properties: { duns: { type: 'string', pattern: '^[0-9]{9}$' } } } } },
    },
  },
};

interface JsonRun {
  files: Array<{ requests: Array<{ name: string; verdict: string; assertions: Array<{ line: number; passed: boolean; expected: string; actual: string; note?: string }> }> }>;
}

describe('bizdata test: schema and snapshot assertions', () => {
  const suite = sandboxRuns('bizdata-checks-');
  const { run, file } = suite;
  let dir = '';
  let sb: Sandbox;
  beforeEach(async () => {
    dir = suite.dir();
    sb = await suite.sandbox();
  });

  it('?? schema: passes a matching answer, fails naming each JSON pointer and rule; draft-07 by its $schema', async () => {
    await writeFile(join(dir, 'lookup.schema.json'), JSON.stringify(SCHEMA));
    // Draft-07's tuple "items": 2020-12 would refuse an array there.
    await writeFile(join(dir, 'old.schema.json'), JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { matchCandidates: { type: 'array', items: [{ type: 'object' }] } } }));
    const f = await file('schema.bizdata.http', ['# @name found', IP, '', '?? schema ./lookup.schema.json', '?? schema ./old.schema.json', '', '###', '# @name none', PRIVATE_IP, '', '?? schema ./lookup.schema.json']);
    const r = await run(['test', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^PASS .*schema\.bizdata\.http:2 found/m);
    assert.match(r.stdout, /^FAIL .*schema\.bizdata\.http:9 none/m);
    assert.ok(
      r.stdout.includes('schema.bizdata.http:11: schema: expected to match ./lookup.schema.json, actual 1 error: /candidatesMatchedQuantity: must be >= 1 (minimum at #/properties/candidatesMatchedQuantity/minimum)'),
      r.stdout,
    );
    const json = JSON.parse((await run(['test', f, '--json'], { ...canaryEnv(sb.url), ...HERE })).stdout) as JsonRun;
    const [found, none] = json.files[0].requests;
    assert.deepEqual(found.assertions.map((a) => a.passed), [true, true]);
    assert.equal(none.assertions[0].line, 11);
    assert.match(none.assertions[0].actual, /^1 error: \/candidatesMatchedQuantity: must be >= 1 \(minimum at/);
  });

  it('?? schema: at most three failures named, then how many more', async () => {
    const strict = { type: 'object', properties: Object.fromEntries(['sandbox', 'inquiryDetail', 'candidatesMatchedQuantity', 'matchCandidates', 'transactionDetail'].map((k) => [k, { type: 'string' }])) };
    await writeFile(join(dir, 'strings.schema.json'), JSON.stringify(strict));
    const f = await file('many.bizdata.http', [IP, '?? schema ./strings.schema.json']);
    const r = await run(['test', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(r.code, 1, r.stderr);
    const line = r.stdout.split('\n').find((l) => l.includes('many.bizdata.http:2:')) ?? '';
    assert.match(line, /actual 5 errors: \/\w+: must be string \(type at #\/properties\/\w+\/type\); \/\w+: must be string .*; and 2 more$/);
  });

  it('?? schema: a missing schema, one outside the folder (through a link) and an invalid one stop the run at their line, before anything is sent', async () => {
    const missing = await file('missing.bizdata.http', [IP, '', '?? status == 200', '?? schema ./nowhere.schema.json']);
    let r = await run(['test', missing], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /missing\.bizdata\.http:4: The schema file \.\/nowhere\.schema\.json does not exist/);
    const outside = join(dir, 'elsewhere');
    await mkdir(outside);
    await writeFile(join(outside, 'x.schema.json'), JSON.stringify(SCHEMA));
    const inner = join(dir, 'tests');
    await mkdir(inner);
    await symlink(join(outside, 'x.schema.json'), join(inner, 'linked.schema.json'));
    const linked = join(inner, 'linked.bizdata.http');
    await writeFile(linked, [IP, '?? schema ./linked.schema.json'].join('\n'));
    r = await run(['test', linked], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /linked\.bizdata\.http:2: The schema file \.\/linked\.schema\.json is outside .* \(it leads to .*elsewhere.x\.schema\.json\)/);
    await writeFile(join(dir, 'bad.schema.json'), JSON.stringify({ type: 'strin' }));
    await writeFile(join(dir, 'hang.schema.json'), JSON.stringify({ properties: { a: { type: 'string', pattern: '^(?=a)(a+)+$' } } }));
    const bad = await file('bad.bizdata.http', [IP, '?? schema ./bad.schema.json', '###', IP, '?? schema ./hang.schema.json']);
    r = await run(['test', bad], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /bad\.bizdata\.http:2: The schema file \.\/bad\.schema\.json cannot be used: it breaks its draft's rules: data\/type must be equal to one of the allowed values/);
    assert.match(r.stderr, /bad\.bizdata\.http:5: The schema file \.\/hang\.schema\.json cannot be used: its pattern .*lookahead/);
    assert.equal((await sb.customer()).dataCalls, 0, 'nothing was sent');
  });

  it('?? snapshot: the first run writes it, the next compares, a change fails naming the paths, --update-snapshots rewrites', async () => {
    const f = await file('orders.bizdata.http', ['# @name ipLookup', IP, '', '?? status == 200', '?? snapshot', '', '### The organization', ORG, '', '?? snapshot']);
    const first = await run(['test', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.ok(first.stdout.includes('orders.bizdata.http:5: snapshot written: __snapshots__/orders.ipLookup.json'), first.stdout);
    assert.ok(first.stdout.includes('orders.bizdata.http:10: snapshot written: __snapshots__/orders.The-organization.json'), first.stdout);
    const folder = join(dir, '__snapshots__');
    assert.deepEqual((await readdir(folder)).sort(), ['orders.The-organization.json', 'orders.ipLookup.json']);
    const kept = JSON.parse(await readFile(join(folder, 'orders.ipLookup.json'), 'utf8')) as { transactionDetail: object; matchCandidates: Array<{ organization: { duns: string } }> };
    // The service's transaction id and timestamp change on every call: left out by default, in both interfaces' shapes.
    assert.deepEqual(kept.transactionDetail, {});
    const org = JSON.parse(await readFile(join(folder, 'orders.The-organization.json'), 'utf8')) as { MatchResponse: { TransactionDetail: object } };
    assert.deepEqual(org.MatchResponse.TransactionDetail, { ApplicationTransactionID: 'BizDataSandbox' });

    const second = await run(['test', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(second.code, 0, second.stdout);
    assert.ok(!second.stdout.includes('snapshot written'), second.stdout);

    kept.matchCandidates[0].organization.duns = '000000000';
    (kept as Record<string, unknown>).retired = true;
    await writeFile(join(folder, 'orders.ipLookup.json'), JSON.stringify(kept, null, 2));
    const changed = await run(['test', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(changed.code, 1, changed.stdout);
    const line = changed.stdout.split('\n').find((l) => l.includes('orders.bizdata.http:5:')) ?? '';
    assert.match(line, /snapshot: expected the snapshot __snapshots__\/orders\.ipLookup\.json, actual 2 differences: \$\.matchCandidates\[0\]\.organization\.duns: expected "000000000", actual "\d{9}"; \$\.retired: expected true, actual \(missing\)$/);

    const updated = await run(['test', f, '--update-snapshots'], { ...canaryEnv(sb.url), CI: 'true' });
    assert.equal(updated.code, 0, updated.stdout);
    assert.ok(updated.stdout.includes('orders.bizdata.http:5: snapshot updated: __snapshots__/orders.ipLookup.json'), updated.stdout);
    assert.ok(!updated.stdout.includes('orders.bizdata.http:10:'), 'an unchanged snapshot is not written again');
    assert.notEqual(JSON.parse(await readFile(join(folder, 'orders.ipLookup.json'), 'utf8')).matchCandidates[0].organization.duns, '000000000');
    assert.equal((await run(['test', f], { ...canaryEnv(sb.url), ...HERE })).code, 0);
  });

  it('?? snapshot: "# @snapshot-ignore" leaves its values out of what is kept and compared', async () => {
    const f = await file('ignore.bizdata.http', ['# @snapshot-ignore $.matchCandidates[*].organization.primaryAddress', '# @snapshot-ignore $.inquiryDetail.view', IP, '', '?? snapshot']);
    assert.equal((await run(['test', f], { ...canaryEnv(sb.url), ...HERE })).code, 0);
    const path = join(dir, '__snapshots__', 'ignore.request-1.json');
    const kept = JSON.parse(await readFile(path, 'utf8')) as { inquiryDetail: Record<string, unknown>; matchCandidates: Array<{ organization: Record<string, unknown> }> };
    assert.deepEqual(Object.keys(kept.inquiryDetail), ['ipAddress']);
    assert.equal(kept.matchCandidates[0].organization.primaryAddress, undefined);
    assert.equal(typeof kept.matchCandidates[0].organization.duns, 'string');
    // An ignored value written into the snapshot by hand still does not count.
    kept.inquiryDetail.view = 'something else';
    await writeFile(path, JSON.stringify(kept));
    const again = await run(['test', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(again.code, 0, again.stdout);
    // A line that is no JSONPath refuses the file at its line.
    const bad = await file('badIgnore.bizdata.http', ['# @snapshot-ignore inquiryDetail', IP, '?? snapshot']);
    const refused = await run(['test', bad], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /badIgnore\.bizdata\.http:1: "inquiryDetail" is not a JSONPath/);
  });

  it('?? snapshot through bizdata send: written the first time, saying so; a later different answer ends the script', async () => {
    const f = await file('script.bizdata.http', ['# @name lookup', IP, '?? snapshot', '###', ORG]);
    const first = await run(['send', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /script\.bizdata\.http:3: snapshot written: __snapshots__\/script\.lookup\.json/);
    const path = join(dir, '__snapshots__', 'script.lookup.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"candidatesMatchedQuantity": 1', '"candidatesMatchedQuantity": 2'));
    const changed = await run(['send', f], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stderr, /script\.bizdata\.http:3: snapshot: .*\$\.candidatesMatchedQuantity: expected 2, actual 1/);
    assert.ok(!changed.stderr.includes('V4.0/organizations'), 'the script ended at the failing request');
  });

  it('?? snapshot in CI: a missing snapshot fails and is not written (CI=true, or --ci)', async () => {
    const f = await file('ci.bizdata.http', ['# @name lookup', IP, '?? snapshot']);
    for (const [env, args] of [[{ CI: 'true' }, []], [{ CI: '' }, ['--ci']]] as const) {
      const r = await run(['test', f, ...args], { ...canaryEnv(sb.url), ...env });
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /ci\.bizdata\.http:3: snapshot: expected the snapshot __snapshots__\/ci\.lookup\.json, actual \(no snapshot: in CI a missing snapshot is not written.*bizdata test --update-snapshots/);
      await assert.rejects(readdir(join(dir, '__snapshots__')), { code: 'ENOENT' });
    }
    // CI=false is no CI.
    assert.equal((await run(['test', f], { ...canaryEnv(sb.url), CI: 'false' })).code, 0);
  });

  it('?? snapshot: a snapshot that is a link, or a __snapshots__ folder that is one, is refused naming it, and nothing is written through it', async () => {
    const outside = join(dir, 'outside');
    await mkdir(outside);
    const target = join(outside, 'precious.json');
    await writeFile(target, '{"keep": true}\n');
    const inner = join(dir, 'tests');
    await mkdir(join(inner, '__snapshots__'), { recursive: true });
    await symlink(target, join(inner, '__snapshots__', 'link.lookup.json'));
    const f = join(inner, 'link.bizdata.http');
    await writeFile(f, ['# @name lookup', IP, '?? snapshot'].join('\n'));
    for (const args of [[], ['--update-snapshots']]) {
      const r = await run(['test', f, ...args], { ...canaryEnv(sb.url), ...HERE });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /link\.bizdata\.http:3: __snapshots__\/link\.lookup\.json is a symbolic link, and snapshots are never read or written through a link/);
    }
    const folderLink = join(dir, 'folderLink');
    await mkdir(folderLink);
    await symlink(outside, join(folderLink, '__snapshots__'));
    const g = join(folderLink, 'f.bizdata.http');
    await writeFile(g, ['# @name lookup', IP, '?? snapshot'].join('\n'));
    const r = await run(['test', g], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /f\.bizdata\.http:3: __snapshots__ is a symbolic link/);
    assert.equal(await readFile(target, 'utf8'), '{"keep": true}\n');
    assert.deepEqual(await readdir(outside), ['precious.json']);
    assert.equal((await sb.customer()).dataCalls, 0, 'nothing was sent');
  });

  it('?? snapshot: a data row has its own snapshot, named by its values', async () => {
    const f = await file('rows.bizdata.http', ['# @name lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '?? snapshot']);
    const rows = join(dir, 'ips.csv');
    await writeFile(rows, 'ip\n198.51.100.7\n203.0.113.7\n');
    const r = await run(['test', f, '--data', rows], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const names = (await readdir(join(dir, '__snapshots__'))).sort();
    assert.equal(names.length, 2, names.join(', '));
    for (const n of names) assert.match(n, /^rows\.lookup\.row-[0-9a-f]{10}\.json$/);
    // Rows in another order find their own snapshots.
    await writeFile(rows, 'ip\n203.0.113.7\n198.51.100.7\n');
    const again = await run(['test', f, '--data', rows, '--ci'], { ...canaryEnv(sb.url), ...HERE });
    assert.equal(again.code, 0, again.stdout + again.stderr);
  });
});

describe('bizdata test: no secret of the run in a snapshot', () => {
  let dir = '';
  let sb: RunningSandbox | undefined;
  let host: EchoHost | undefined;
  const { run } = cliRuns('bizdata-snapshot-secrets-', (d) => (dir = d));

  afterEach(async () => {
    await host?.close();
    await sb?.close();
    host = sb = undefined;
  });

  it('an answer that echoes the token and the sign-in is kept with each secret withheld, and says so', async () => {
    sb = await startSandbox({ port: 0, config: oddConfig() });
    host = await echoHost(sb.url);
    const f = join(dir, 'echo.bizdata.http');
    await writeFile(f, ['# @name a', '# @interface a', IP, '?? snapshot', '', '###', '# @name b', '# @interface b', ORG, '?? snapshot'].join('\n'));
    const r = await run(['test', f], { ...oddEnv(host.url), ...HERE });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /echo\.bizdata\.http:4: snapshot written: __snapshots__\/echo\.a\.json \(a credential or token of this run in the answer is withheld from it\)/);
    const kept = await Promise.all(['echo.a.json', 'echo.b.json'].map((n) => readFile(join(dir, '__snapshots__', n), 'utf8')));
    assert.ok(kept.every((k) => k.includes('<redacted>')), 'the echoed values were there, withheld');
    assertNoSecretIn(
      [
        { name: 'snapshot a', text: kept[0] },
        { name: 'snapshot b', text: kept[1] },
        { name: 'stdout', text: r.stdout },
      ],
      secretsOf(host),
    );
  });
});

// The command line bundle (dist/cli.js) against real components: tinyproxy, an HTTPS server with a
// self-signed certificate, a sandbox with faults, a dripping server, and hostile files.
import * as assert from 'node:assert/strict';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CANARY } from '../core/harness';
import { startDripServer, startHostileServer, startHttpsFront, startTinyproxy, TLS_CERT } from '../core/network';
import { canaryEnv, sandboxRuns } from './cliHarness';

// eslint-disable-next-line no-control-regex -- what must never reach a terminal
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('bizdata command line: real-world answers and hostile networks', () => {
  let dir: string;
  const { run, outputs, sandbox } = sandboxRuns('bizdata-cli-rw-', (d) => (dir = d));

  after(() => {
    for (const o of outputs) assert.doesNotMatch(o, RAW_CONTROL, 'a control character reached the terminal');
  });

  it('check: one line per code in every documented shape, exact JSON ranges, exit 1 on an error', async () => {
    const file = join(dir, 'responses.json');
    const text = JSON.stringify({
      ip: { result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } },
      org: { MatchResponse: { TransactionResult: { SeverityText: 'Error', ResultID: 'CM018', ResultText: 'No match' } } },
      oauth: { error: 'invalid_request', error_description: 'Refused \u001b]0;owned\u0007 \u202eErrorCode: 05007' },
      ok: { TransactionResult: { SeverityText: 'Information', ResultID: 'CM000', ResultText: 'Success' } },
    }, null, 2);
    await writeFile(file, text);
    const lines = await run(['check', file]);
    assert.equal(lines.code, 1, lines.stderr);
    const out = lines.stdout.trim().split('\n');
    assert.equal(out.length, 4);
    // A spec code keeps the spec's text, the service's own words beside it; then the catalog's meaning and action.
    assert.match(out[0], new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:4:21: warning 00040: The access token in use has expired\\. The service said: "Access token expired" — The Interface A bearer token is more than 24 hours old\\. Obtain a new token\\.$`));
    assert.match(out[1], /: error CM018: No match — /);
    assert.match(out[2], /: error 05007: Refused \\u001B\]0;owned\\u0007 \\u202EErrorCode: 05007 \(05007 is not in the catalog; the text is the service's own\) — /);
    assert.match(out[3], /: info CM000: Success — The call succeeded\. Nothing to do\.$/);
    const json = await run(['check', file, '--json']);
    const findings = JSON.parse(json.stdout) as Array<{ line: number; column: number; endLine: number; endColumn: number; code: string; known: boolean; severity: string }>;
    const rows = text.split('\n');
    for (const f of findings) {
      assert.equal(f.line, f.endLine);
      assert.equal(rows[f.line - 1].slice(f.column - 1, f.endColumn - 1), f.code, 'the range covers the code without quotes');
    }
    assert.deepEqual(findings.map((f) => [f.code, f.known]), [['00040', true], ['CM018', true], ['05007', false], ['CM000', true]]);
  });

  it('check: exit 2 for a file that is missing or not JSON, exit 0 with no error', async () => {
    const good = join(dir, 'ok.json');
    await writeFile(good, '{"TransactionResult": {"ResultID": "CM000"}}');
    assert.equal((await run(['check', good])).code, 0);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"error": ');
    const r = await run(['check', good, bad, join(dir, 'missing.json')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bad\.json:1:\d+: not JSON/);
    assert.match(r.stderr, /missing\.json: cannot be read: there is no such file/);
  });

  it('a codes file adds descriptions to check, explain and failures; a bad one is refused naming file and entry', async () => {
    const codes = join(dir, 'codes.json');
    await writeFile(codes, JSON.stringify({ codes: [{ code: 'CM021', text: 'Partial record', action: 'Use the fields present.', severity: 'warning' }] }));
    const resp = join(dir, 'r.json');
    await writeFile(resp, '{"TransactionResult": {"ResultID": "CM021", "ResultText": "x"}}');
    const checked = await run(['check', resp], { BIZDATA_CODES_FILE: codes });
    assert.match(checked.stdout, /warning CM021: x — Partial record\. Use the fields present\./);
    assert.equal(checked.code, 0);
    const explained = await run(['explain', 'CM021', '--codes', codes]);
    assert.match(explained.stdout, /from your codes file/);
    await writeFile(codes, JSON.stringify({ codes: [{ code: 'CM021', text: 't', action: 'a' }, { code: 'SC001', text: 't', action: 'a' }] }));
    const clash = await run(['explain', 'CM021', '--codes', codes]);
    assert.equal(clash.code, 2);
    assert.match(clash.stderr, /codes\.json, entry 2: SC001 is already in the catalog \(the specification\)/);
    await writeFile(codes, JSON.stringify({ codes: [{ code: 'X1', text: 't', action: 'a', severity: 'fatal' }] }));
    assert.match((await run(['check', resp, '--codes', codes])).stderr, /entry 1 \(X1\): "severity" must be one of error, warning, info/);
  });

  it('explain: the catalog entry, or a plain "not in the catalog"', async () => {
    const sc003 = await run(['explain', 'SC003']);
    assert.equal(sc003.code, 0);
    assert.match(sc003.stdout, /Text: Your user credentials have expired\.\n {2}Meaning: .*\n {2}What to do: Contact support\./);
    const documented = await run(['explain', '00045']);
    assert.match(documented.stdout, /service's own documentation \(not in the specification\); HTTP 429/);
    const unknown = await run(['explain', 'XY123']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stdout, /XY123 is not in the catalog/);
  });

  it('refuses bad input before any request, with exit 2 and without echoing secrets', async () => {
    const sb = await sandbox();
    const env = canaryEnv(sb.url);
    const before = (await sb.stats()).requests;
    const org = ['org', '--country', 'US', '--name', 'Example Corp'];
    const control = await run(org, { ...env, BIZDATA_PASSWORD: `${CANARY.password}\u001b` });
    assert.deepEqual([control.code, /control character/.test(control.stderr)], [2, true], control.stderr);
    const wide = await run(org, { ...env, BIZDATA_PASSWORD: `${CANARY.password}✓` });
    assert.deepEqual([wide.code, /outside Latin-1/.test(wide.stderr)], [2, true], wide.stderr);
    const origin = await run(['ip', '203.0.113.7'], { ...env, BIZDATA_ORIGIN: 'https://app.example.com\u0007' });
    assert.deepEqual([origin.code, /The Origin value contains a control character/.test(origin.stderr)], [2, true], origin.stderr);
    const inUrl = await run(['ip', '203.0.113.7', '-v'], { ...env, BIZDATA_AUTH_URL: sb.url.replace('//', `//admin:${CANARY.password}@`) });
    assert.deepEqual([inUrl.code, /user name or password before the host/.test(inUrl.stderr)], [2, true], inUrl.stderr);
    const notPem = join(dir, 'ca.pem');
    await writeFile(notPem, 'not a certificate\n');
    const ca = await run(['ip', '203.0.113.7', '--ca-file', notPem], env);
    assert.deepEqual([ca.code, /The CA file .*ca\.pem holds no PEM certificate/.test(ca.stderr)], [2, true], ca.stderr);
    assert.equal((await run(['ip', '1.2.3.4', '--timeout', 'soon'], env)).code, 2);
    assert.equal((await run(['ip', '1.2.3.4', '--a-version', 'v1/../x'], env)).code, 2);
    const input = join(dir, 'ips.txt');
    await writeFile(input, '203.0.113.7\n');
    await symlink(input, join(dir, 'link.jsonl'));
    for (const out of [join(dir, '.', 'ips.txt'), join(dir, 'link.jsonl')]) {
      const same = await run(['batch', input, '--out', out], env);
      assert.deepEqual([same.code, /is the input file/.test(same.stderr)], [2, true], same.stderr);
    }
    assert.equal(await readFile(input, 'utf8'), '203.0.113.7\n');
    assert.equal((await sb.stats()).requests, before, 'nothing was sent');
  });

  it('ip exits non-zero on a 200 that is not JSON, printing no "undefined"', async () => {
    const sb = await sandbox();
    await sb.admin('POST', 'faults', { type: 'malformed-json', path: '/v1/duns-search', count: 1 });
    const r = await run(['ip', '203.0.113.7'], canaryEnv(sb.url));
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /api failure \(HTTP 200\)\n {2}The service answered HTTP 200 with text that is not JSON/);
  });

  it('SC003 says "Contact support." and never brings the lockout guard closer', async () => {
    const sb = await sandbox({ credentialsExpired: true });
    for (let i = 0; i < 3; i++) {
      const r = await run(['org', '--country', 'US', '--name', 'Example Corp'], canaryEnv(sb.url));
      assert.equal(r.code, 3);
      assert.match(r.stderr, /Your user credentials have expired\. The API user's credentials have expired; support must renew them\.\n {2}Meaning: The API user's credentials are past their expiry\.\n {2}What to do: Contact support\./);
      assert.doesNotMatch(r.stderr, /lockout guard|Check the user name and password/);
    }
  });

  it('--proxy works in the bundle: absolute-URI requests for http, CONNECT for https', async () => {
    const sb = await sandbox();
    const proxy = await startTinyproxy();
    const front = await startHttpsFront(sb.url);
    try {
      const plain = await run(['ip', '203.0.113.7', '--proxy', proxy.url], canaryEnv(sb.url));
      assert.equal(plain.code, 0, plain.stderr);
      const tls = await run(['ip', '203.0.113.8', '--ca-file', TLS_CERT], { ...canaryEnv(front.url), BIZDATA_PROXY: proxy.url });
      assert.equal(tls.code, 0, tls.stderr);
      const seen = await proxy.requests();
      assert.ok(seen.some((l) => l.startsWith(`GET ${sb!.url}/v1/duns-search/ip/203.0.113.7`)), seen.join(' | '));
      assert.ok(seen.includes(`CONNECT ${new URL(front.url).host}`), seen.join(' | '));
    } finally {
      await front.close();
      await proxy.close();
    }
  });

  it('keeps TLS verification on even with NODE_TLS_REJECT_UNAUTHORIZED=0', async () => {
    const sb = await sandbox();
    const front = await startHttpsFront(sb.url);
    try {
      const env = { ...canaryEnv(front.url), NODE_TLS_REJECT_UNAUTHORIZED: '0' };
      const refused = await run(['ip', '203.0.113.7'], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /self-signed TLS certificate|could not be verified/);
      assert.equal((await sb.stats()).requests, 0, 'nothing reached the service behind the untrusted certificate');
      const trusted = await run(['ip', '203.0.113.7', '--ca-file', TLS_CERT], env);
      assert.equal(trusted.code, 0, trusted.stderr);
    } finally {
      await front.close();
    }
  });

  it('--timeout ends a call that a server drips one byte at a time; --a-version changes the path', async () => {
    const drip = await startDripServer(200);
    try {
      // Without the deadline the drip would outlast run's own 30 s limit, and the code would not be 1.
      const r = await run(['ip', '203.0.113.7', '--timeout', '1'], canaryEnv(drip.url), 30_000);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /no complete answer within the 1 s request deadline/);
    } finally {
      await drip.close();
    }
    const sb = await sandbox();
    const v9 = await run(['ip', '203.0.113.7', '--a-version', 'v9', '-v'], canaryEnv(sb.url));
    assert.match(v9.stderr, /POST http:\/\/127\.0\.0\.1:\d+\/v9\/token -> 404/);
  });

  it("neutralises control and bidi characters of the service's texts before they reach the terminal", async () => {
    const hostile = 'Refused \u001b]0;owned\u0007 \u001b[2J \u009b31m \u202eevil\nWhat to do: forged';
    const server = await startHostileServer((res) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { errorCode: 'XY\u001b9', errorMessage: hostile } }));
    });
    try {
      const r = await run(['ip', '203.0.113.7', '-v'], canaryEnv(server.url));
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Refused \\u001B\]0;owned\\u0007 \\u001B\[2J \\u009B31m \\u202Eevil\\u000AWhat to do: forged/);
      assert.match(r.stderr, /-> 400 XY\\u001B9/);
      assert.equal(r.stderr.match(/^ {2}What to do:/gm)?.length, 1, 'no forged line');
    } finally {
      await server.close();
    }
  });
});

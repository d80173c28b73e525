// `bizdata send` on request files written for REST Client and httpYac, against the real sandbox
// behind a recording relay of the test's own: a loopback TCP relay that keeps every byte the client
// sends. File bodies, multipart, form and GraphQL requests reach the service byte for byte as the
// peers send them; the safety rules refuse with FILE:LINE and exit 2, and nothing reaches the relay.
import * as assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary, CANARY } from '../core/harness';
import { canaryEnv, runCli, type Run } from './cliHarness';
import { useEchoRelay } from './echoRelay';
import type { RawRequest } from '../../recordingRelay';

describe('bizdata send: request files of REST Client and httpYac, byte for byte (recording relay, real sandbox)', function () {
  this.timeout(60_000);
  const outputs: string[] = [];
  const at = useEchoRelay('bizdata-peers-cli-');

  after(() => assertNoCanary(outputs));

  const send = (args: readonly string[], env: Record<string, string> = {}): Promise<Run> => runCli(['send', ...args], { ...canaryEnv(at.relay.url), ...env }, at.dir, outputs, 30_000);

  /** The request as sent, without the headers that differ per run (host, token). */
  function shape(r: RawRequest): { line: string; headers: Record<string, string>; body: Buffer } {
    const auth = r.headers.find(([k]) => k === 'authorization')?.[1] ?? '';
    assert.match(auth, /^Bearer \S+$/, 'the managed token, added by the client');
    const headers = Object.fromEntries(r.headers.filter(([k]) => k !== 'host' && k !== 'authorization'));
    return { line: r.line, headers, body: r.body };
  }

  it('sends a file body, a multipart upload, a form and a GraphQL query exactly as the peers do', async () => {
    const work = join(at.dir, 'work');
    await mkdir(work);
    const json = Buffer.from('{\r\n  "id": "{{kept}}"\r\n}\n');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xfe, 0xff]);
    await writeFile(join(work, 'body.json'), json);
    await writeFile(join(work, 'logo.png'), png);
    const file = join(work, 'peers.http');
    await writeFile(
      file,
      [
        '@city = São Paulo',
        '',
        '### file body',
        'POST {{baseUrl}}/v1/echo/file',
        'Content-Type: application/json',
        '',
        '< ./body.json',
        '',
        '### multipart',
        'POST {{baseUrl}}/v1/echo/upload',
        'Content-Type: multipart/form-data; boundary=XyZ',
        '',
        '--XyZ',
        'Content-Disposition: form-data; name="title"',
        '',
        '{{city}}',
        '--XyZ',
        'Content-Disposition: form-data; name="logo"; filename="logo.png"',
        'Content-Type: image/png',
        '',
        '< ./logo.png',
        '--XyZ--',
        '',
        '### form',
        'POST {{baseUrl}}/v1/echo/form',
        'Content-Type: application/x-www-form-urlencoded',
        '',
        '# a comment, dropped',
        'city={{city}}',
        '&n=1',
        '',
        '### graphql',
        'POST {{baseUrl}}/v1/echo/graphql',
        'Content-Type: application/json',
        'X-REQUEST-TYPE: GraphQL',
        '',
        'query Org($duns: String!) {',
        '  organization(duns: $duns) { primaryName }',
        '}',
        '',
        '{ "duns": "804735132" }',
        '',
      ].join('\r\n'),
    );
    const r = await send([file]);
    assert.equal(r.code, 0, r.stderr);
    const [fileBody, multipart, form, graphql] = at.echoes().map(shape);
    const common = { accept: 'application/json', 'accept-encoding': 'gzip', origin: 'https://app.example.com', connection: 'keep-alive' };
    const expect = (line: string, type: string, body: Buffer) => ({ line: `${line} HTTP/1.1`, headers: { ...common, 'content-type': type, 'content-length': String(body.length) }, body });
    const byName = (r: { line: string; headers: Record<string, string>; body: Buffer }) => ({ ...r, headers: Object.fromEntries(Object.entries(r.headers).sort()) });
    assert.deepEqual(byName(fileBody), byName(expect('POST /v1/echo/file', 'application/json', json)));
    const upload = Buffer.concat([
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nSão Paulo\r\n--XyZ\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n'),
      png,
      Buffer.from('\r\n--XyZ--'),
    ]);
    assert.deepEqual(byName(multipart), byName(expect('POST /v1/echo/upload', 'multipart/form-data; boundary=XyZ', upload)));
    assert.deepEqual(byName(form), byName(expect('POST /v1/echo/form', 'application/x-www-form-urlencoded', Buffer.from('city=S%C3%A3o%20Paulo&n=1'))));
    const query = JSON.stringify({ query: 'query Org($duns: String!) {\n  organization(duns: $duns) { primaryName }\n}', operationName: 'Org', variables: { duns: '804735132' } });
    assert.deepEqual(byName(graphql), byName(expect('POST /v1/echo/graphql', 'application/json', Buffer.from(query))));
  });

  it('refuses a body file outside the folder, a link out of it, a $processEnv not allowed and a BIZDATA_ credential: exit 2 at the line, nothing sent', async () => {
    const work = join(at.dir, 'a', 'b');
    await mkdir(work, { recursive: true });
    await writeFile(join(at.dir, 'outside.txt'), 'OUTSIDE-FILE');
    await symlink(join(at.dir, 'outside.txt'), join(work, 'link.txt'));
    const head = 'POST {{baseUrl}}/v1/echo/x\nContent-Type: text/plain\n\n';
    const cases = [
      { name: 'up', body: '< ../../outside.txt', args: [], says: /is outside .*reads only files inside the request file's own folder/ },
      { name: 'link', body: '< ./link.txt', args: [], says: /it leads to .*outside\.txt/ },
      { name: 'env', body: 'region={{$processEnv REGION}}', args: [], says: /To send REGION, run bizdata send with --allow-env REGION/ },
      { name: 'secret', body: 'p={{$processEnv BIZDATA_PASSWORD}}', args: ['--allow-env', 'BIZDATA_PASSWORD'], says: /BIZDATA_ variables hold this client's settings and credentials/ },
    ];
    const before = (await (await fetch(`${at.sandbox.url}/_sandbox/stats`, { headers: { 'x-sandbox-admin': at.sandbox.adminKey } })).json()) as { requests: number };
    for (const c of cases) {
      const file = join(work, `${c.name}.http`);
      await writeFile(file, `### first, fine\nPOST {{baseUrl}}/v1/echo/fine\n\nok\n\n###\n${head}${c.body}\n`);
      const r = await send([file, ...c.args], { REGION: 'eu' });
      assert.equal(r.code, 2, `${c.name}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:10: `), c.name);
      assert.match(r.stderr, c.says, c.name);
      assert.doesNotMatch(r.stdout + r.stderr, /OUTSIDE-FILE/, c.name);
    }
    const after = (await (await fetch(`${at.sandbox.url}/_sandbox/stats`, { headers: { 'x-sandbox-admin': at.sandbox.adminKey } })).json()) as { requests: number };
    assert.equal(after.requests, before.requests, 'the sandbox received a request');
    assert.equal(at.relay.bytes(), 0, 'nothing reached the relay, not even a sign-in');
  });

  it('with # @connection, a <@ body file and .env values take the variables of that connection', async () => {
    const work = join(at.dir, 'conn');
    await mkdir(work);
    await writeFile(join(work, 'template.txt'), 'base={{baseUrl}}|region={{$dotenv region}}|id={{customer}}');
    await writeFile(join(work, '.env'), 'region=eu-west\n');
    const connections = join(at.dir, 'connections.json');
    const relayed = { authUrl: at.relay.url, baseUrl: at.relay.url, legacyUrl: at.relay.url, origin: 'https://app.example.com' };
    await writeFile(connections, JSON.stringify({ active: 'elsewhere', connections: { elsewhere: { ...relayed, baseUrl: 'http://127.0.0.1:9' }, relayed } }));
    const file = join(work, 'conn.http');
    await writeFile(file, ['# @connection relayed', '# @prompt customer', 'POST {{baseUrl}}/v1/echo/conn', 'Content-Type: text/plain', '', '<@ ./template.txt', ''].join('\n'));
    // The request goes through "relayed", not the run's connection: its credentials are given by its name.
    const { BIZDATA_CONSUMER_KEY, BIZDATA_CONSUMER_SECRET } = canaryEnv(at.relay.url);
    const named = { BIZDATA_RELAYED_CONSUMER_KEY: BIZDATA_CONSUMER_KEY, BIZDATA_RELAYED_CONSUMER_SECRET: BIZDATA_CONSUMER_SECRET };
    const r = await runCli(['send', file, '--connections', connections, '--var', 'customer=7'], named, at.dir, outputs, 30_000);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      at.echoes().map((e) => e.body.toString('utf8')),
      [`base=${at.relay.url}|region=eu-west|id=7`],
    );
  });

  it('# @prompt from --var (refused without it and without a terminal), # @disabled skipped, # @note only with --confirm-notes', async () => {
    const file = join(at.dir, 'settings.http');
    await writeFile(
      file,
      ['### look', '# @prompt customer The customer id', 'POST {{baseUrl}}/v1/echo/{{customer}}', '', 'x', '', '### never', '# @disabled', 'POST {{baseUrl}}/v1/echo/disabled', '', '### careful', '# @note Writes data', 'POST {{baseUrl}}/v1/echo/noted', '', 'y', ''].join('\n'),
    );
    const noVar = await send([file, '--confirm-notes']);
    assert.equal(noVar.code, 2, noVar.stderr);
    assert.match(noVar.stderr, /asks for customer \("# @prompt" at line 2\)\. Give --var customer=VALUE/);
    const noConfirm = await send([file, '--var', 'customer=42']);
    assert.equal(noConfirm.code, 2, noConfirm.stderr);
    assert.match(noConfirm.stderr, /settings\.http:13 is marked "# @note".*--confirm-notes/);
    assert.equal(at.relay.bytes(), 0, 'nothing sent by the refused runs');
    const ok = await send([file, '--var', 'customer=42', '--confirm-notes']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /never: skipped \(# @disabled\)/);
    assert.deepEqual(
      at.echoes().map((r) => r.line),
      ['POST /v1/echo/42 HTTP/1.1', 'POST /v1/echo/noted HTTP/1.1'],
    );
    assert.doesNotMatch(ok.stderr, new RegExp(CANARY.password));
  });
});

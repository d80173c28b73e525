// `bizdata send` sends a credential only to the exact origin of a configured service address: request
// lines to another spelling of the sandbox's loopback address (127.0.0.1, localhost, 127.1 and [::1]
// for each other, another port, a final dot) are refused at their line, exit 2, before anything is
// sent, and plain listeners of the test's own on those addresses receive nothing.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoCanary, CANARY, sandbox, type Sandbox } from '../core/harness';
import { startListener, withCredentials, type Listener } from '../core/listeners';
import { canaryEnv, runCli, type Run } from './cliHarness';

const IP = 'v1/duns-search/ip/203.0.113.7?view=standard';
const ORG = 'V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true';
const SECRETS = Object.values(CANARY);

describe('bizdata send: credentials only to the exact service origin', () => {
  let sb: Sandbox | undefined;
  let dir: string;
  const listeners: Listener[] = [];
  const outputs: string[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-origin-'));
  });

  afterEach(async () => {
    await Promise.all(listeners.splice(0).map((l) => l.close()));
    await sb?.close();
    sb = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  after(() => assertNoCanary(outputs));

  async function send(lines: readonly string[], serviceUrl: string): Promise<Run & { readonly file: string }> {
    const file = join(dir, 'calls.bizdata.http');
    await writeFile(file, lines.join('\n'));
    const env = canaryEnv(serviceUrl);
    return { ...(await runCli(['send', file], env, dir, outputs)), file };
  }

  /** No listener got a request at all (so none with a credential either). */
  function assertNothingReached(): void {
    for (const l of listeners) {
      assert.deepEqual(withCredentials(l.received, SECRETS), [], `${l.url} received a credential`);
      assert.equal(l.received.length, 0, `${l.url} received ${JSON.stringify(l.received.map((r) => r.path))}`);
    }
  }

  it('service on [::1]: lines to 127.0.0.1, localhost and 127.1 on its port and to [::1] on another port are refused at their lines', async () => {
    sb = await sandbox({}, undefined, '::1');
    const port = Number(new URL(sb.url).port);
    listeners.push(await startListener('127.0.0.1', port), await startListener('::1'));
    const r = await send(
      [
        '### A to 127.0.0.1',
        '# @interface a',
        `GET http://127.0.0.1:${port}/${IP}`,
        '###',
        '# @interface b',
        `GET http://localhost:${port}/${ORG}`,
        '###',
        `GET http://127.1:${port}/${IP}`,
        '###',
        '# @interface b',
        `GET ${listeners[1].url}/${ORG}`,
        '###',
        `GET {{baseUrl}}/${IP}`,
      ],
      sb.url,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /nothing was sent/);
    const only = `its token goes only to http://\\[::1\\]:${port} `;
    assert.match(r.stderr, new RegExp(`calls\\.bizdata\\.http:3: The request goes to http://127\\.0\\.0\\.1:${port}, which is not a service host of Interface A: ${only}`));
    assert.match(r.stderr, new RegExp(`calls\\.bizdata\\.http:6: The request goes to http://localhost:${port}, which is not a service host of Interface B: ${only}`));
    assert.match(r.stderr, new RegExp(`calls\\.bizdata\\.http:8: The request goes to http://127\\.0\\.0\\.1:${port}, which is no configured service host`));
    assert.match(r.stderr, new RegExp(`calls\\.bizdata\\.http:11: The request goes to http://\\[::1\\]:${listeners[1].port}, which is not a service host of Interface B: ${only}`));
    assert.ok(!/calls\.bizdata\.http:13/.test(r.stderr), 'the request to the service is not refused');
    assertNothingReached();
    assert.equal((await sb.stats()).requests, 0, 'not even a sign-in was sent');
  });

  it('service on 127.0.0.1: lines to [::1] on its port are refused, with or without "# @interface"', async () => {
    sb = await sandbox();
    const port = Number(new URL(sb.url).port);
    listeners.push(await startListener('::1', port));
    const r = await send([`GET {{baseUrl}}/${IP}`, '###', '# @interface b', `GET http://[::1]:${port}/${ORG}`, '###', `GET http://[0:0:0:0:0:0:0:1]:${port}/${IP}`], sb.url);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`calls\\.bizdata\\.http:4: The request goes to http://\\[::1\\]:${port}, which is not a service host of Interface B: its token goes only to http://127\\.0\\.0\\.1:${port} `));
    assert.match(r.stderr, /calls\.bizdata\.http:6: .*which is no configured service host/);
    assertNothingReached();
    assert.equal((await sb.stats()).requests, 0, 'the request to the service before them was not sent either');
  });

  it('service at http://localhost:PORT: a line to localhost. (a final dot) is refused, nothing sent', async () => {
    sb = await sandbox();
    const service = `http://localhost:${new URL(sb.url).port}`;
    const r = await send([`GET {{baseUrl}}/${IP}`, '###', '# @interface a', `GET http://localhost.:${new URL(sb.url).port}/${IP}`], service);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`calls\\.bizdata\\.http:4: The request goes to http://localhost\\.:\\d+, which is not a service host of Interface A: its token goes only to ${service.replace(/\./g, '\\.')} `));
    assert.equal((await sb.stats()).requests, 0);
  });

  it('a chained address from an answer is checked at its turn: refused at its line, the listener gets nothing', async () => {
    sb = await sandbox({}, undefined, '::1');
    const port = Number(new URL(sb.url).port);
    listeners.push(await startListener('127.0.0.1', port));
    await sb.admin('POST', 'faults', { type: 'respond', path: '/v1/duns-search/ip/198.51.100.1', status: 200, body: { next: `http://127.0.0.1:${port}/${IP}` }, count: 1 });
    const r = await send(['# @name first', `GET {{baseUrl}}/v1/duns-search/ip/198.51.100.1`, '###', '# @interface a', 'GET {{first.response.body.$.next}}'], sb.url);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /first: GET .*198\.51\.100\.1 -> 200/);
    assert.match(r.stderr, new RegExp(`calls\\.bizdata\\.http:5: The request goes to http://127\\.0\\.0\\.1:${port}, which is not a service host of Interface A`));
    assertNothingReached();
    assert.equal((await sb.customer()).dataCalls, 1, 'only the first request was sent');
  });
});

// The run engine (core/run/engine.ts), against the real sandbox: what chains, what stops a run and
// what is skipped is decided there once, for `bizdata send`/`test`, Send and the Test Explorer.
import * as assert from 'node:assert/strict';
import type { CallFailure } from '../../../src/core/model';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { runRequests, type RunEvent, type RunHost } from '../../../src/core/run/engine';
import { stopOf } from '../../../src/core/run/stops';
import { chainedAnswer } from '../../../src/core/run/chain';
import { NO_SECRETS } from '../../../src/core/redact';
import { endpointsFor, sandbox, testClient, type Sandbox } from './harness';

const NO_FILES = { read: () => Promise.resolve({ ok: false as const, message: 'no body files here' }) };

function hostOf(sb: Sandbox, events: RunEvent[]): RunHost {
  const { client } = testClient(sb.url);
  const endpoints = endpointsFor(sb.url);
  return {
    connections: { active: 'default', names: ['default'], endpoints: () => endpoints },
    route: (name) => (name === 'default' ? { name, endpoints, send: (request) => client.send(request) } : undefined),
    inputs: () => Promise.resolve({ files: NO_FILES }),
    confirm: () => Promise.resolve(false),
    secrets: NO_SECRETS,
    on: (e) => void events.push(e),
  };
}

const kinds = (events: readonly RunEvent[]): string[] => events.map((e) => (e.kind === 'skipped' ? `skipped:${e.why}` : e.kind === 'judged' ? `judged:${e.outcome.verdict}` : e.kind));

describe('the run engine', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  it('keeps an expected refusal\'s answer for the requests that chain on it, and judges both', async () => {
    sb = await sandbox();
    const file = parseRequestFile(
      ['# @name missing', 'GET {{baseUrl}}/v1/no-such-operation', '', '?? status == 404', '', '###', 'GET {{baseUrl}}/v1/duns-search/ip/8.8.8.8?kind={{missing.response.headers.content-type}}', '', '?? status == 200'].join('\n'),
    );
    const events: RunEvent[] = [];
    const run = await runRequests({ file, requests: file.requests, until: 'end' }, hostOf(sb, events));
    assert.deepEqual(run.outcomes.map((o) => [o.verdict, o.status]), [['passed', 404], ['passed', 200]]);
    assert.equal(run.stopped, undefined);
    assert.match(run.outcomes[1].url ?? '', /kind=application%2Fjson|kind=application\/json/);
    assert.ok(run.responses.has('missing'));
    assert.deepEqual(kinds(events), ['started', 'answered', 'judged:passed', 'started', 'answered', 'judged:passed']);
  });

  it('ends the run at a contract limit (SC005): an error of that request, never judged, and the rest skipped', async () => {
    sb = await sandbox({ contractLimit: 1 });
    const lookup = (n: number): string[] => [`### ${n}`, 'GET {{baseUrl}}/v1/duns-search/ip/8.8.8.8', '', '?? status == 401', ''];
    const file = parseRequestFile([...lookup(1), ...lookup(2), ...lookup(3)].join('\n'));
    const events: RunEvent[] = [];
    const run = await runRequests({ file, requests: file.requests, until: 'end' }, hostOf(sb, events));
    // The first is within the contract (200, so its assertion fails); the second is refused with SC005, which its assertion would pass: it is not judged.
    assert.deepEqual(run.outcomes.map((o) => [o.verdict, o.code]), [['failed', undefined], ['error', 'SC005']]);
    assert.equal(run.stopped?.failure?.code, 'SC005');
    assert.deepEqual(kinds(events).slice(-2), ['stopped', 'skipped:stopped']);
    // The third was never sent.
    assert.equal((await sb.customer()).dataCalls, 2);
  });

  it('skips a disabled request and a declined "# @note" without sending them; "first-failure" ends a script at a failing request', async () => {
    sb = await sandbox();
    const file = parseRequestFile(
      ['# @disabled', 'GET {{baseUrl}}/v1/duns-search/ip/8.8.8.8', '', '###', '# @note really?', 'GET {{baseUrl}}/v1/duns-search/ip/8.8.4.4', '', '###', 'GET {{baseUrl}}/v1/no-such-operation', '', '###', 'GET {{baseUrl}}/v1/duns-search/ip/1.1.1.1'].join('\n'),
    );
    const events: RunEvent[] = [];
    const run = await runRequests({ file, requests: file.requests, until: 'first-failure' }, hostOf(sb, events));
    assert.deepEqual(kinds(events), ['skipped:disabled', 'skipped:declined', 'started', 'answered', 'judged:failed', 'stopped', 'skipped:stopped']);
    assert.equal(run.outcomes.length, 1);
    assert.equal(run.stopped?.failure, undefined);
  });
});

describe('what stops a run (stops.ts)', () => {
  const failure = (kind: CallFailure['kind'], code?: string, comeBackAt?: number): CallFailure => ({ ok: false, kind, code, text: 't', advice: 'a', durationMs: 1, ...(comeBackAt ? { comeBackAt } : {}) });
  it('stops at the guard, refused credentials, a contract limit, a late Retry-After, the coordinator, the setup and a cancel; never at SC006 waited out, an API error or the network', () => {
    for (const f of [failure('guard'), failure('auth', 'SC001'), failure('limit', 'SC005'), failure('limit', 'SC006', Date.now() + 60_000), failure('coordinator'), failure('input'), failure('cancelled')]) assert.equal(stopOf(f), f, `${f.kind} ${f.code ?? ''}`);
    for (const f of [failure('limit', 'SC006'), failure('api', '00404'), failure('network')]) assert.equal(stopOf(f), undefined, `${f.kind} ${f.code ?? ''}`);
  });
});

describe('what a later request chains on (chain.ts)', () => {
  const record = { method: 'GET', url: 'http://h/x', headers: {} };
  it("keeps a refusal's answer as the service gave it (its values, never a placeholder), and nothing of a failed sign-in", () => {
    const refused = chainedAnswer({ ok: false, kind: 'api', status: 404, body: { echo: 's3cret', n: 1 }, headers: { 'x-echo': 's3cret' }, text: 't', advice: 'a', durationMs: 1 });
    assert.deepEqual([refused?.body, refused?.headers], [{ echo: 's3cret', n: 1 }, { 'x-echo': 's3cret' }]);
    // A field named like a credential is a value like any other: what is sent is the answer's own.
    const large = chainedAnswer({ ok: true, status: 200, body: undefined, text: '{"token":"foobar"}', durationMs: 1, request: record });
    assert.deepEqual(large?.body, { token: 'foobar' });
    assert.equal(chainedAnswer({ ok: false, kind: 'auth', status: 401, body: { a: 1 }, signIn: true, text: 't', advice: 'a', durationMs: 1 }), undefined);
    assert.equal(chainedAnswer({ ok: false, kind: 'network', text: 't', advice: 'a', durationMs: 1 }), undefined);
  });
});

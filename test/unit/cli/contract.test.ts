// A connection's contract through the built CLI against the real sandbox over loopback (issue 35): two
// processes at once count exactly the data calls the sandbox counted (through the state directory, and
// through a real redis-server), the count survives a restart, --max-calls never lets the sandbox count
// more than N for a run and the rerun does the rest with no row twice, --dry-run sends nothing and says
// rows × requests, a run over what the contract has left is refused with nothing sent (and runs with
// --yes), and after an SC005 no process sends a data call until `bizdata usage --reset`.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultLine } from '../../../src/core/data/results';
import type { ContractUsage } from '../../../src/core/contract/usage';
import { assertNoCanary, CANARY, CUSTOMER, sandbox, type CustomerOverrides, type Sandbox } from '../core/harness';
import { startRedis, type RedisServer } from '../redisServer';
import { runCli, type Run } from './cliHarness';

const IP_FILE = `### lookup
GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard

?? status == 200
`;

const TWO_REQUESTS = `### first
GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard

### second
GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard
`;

/** A data file of `count` IP addresses, the `from`-th one first. */
const ipRows = (count: number, from = 0): string => {
  const ip = (n: number): string => `198.51.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  return `ip\n${Array.from({ length: count }, (_, i) => ip(i + from)).join('\n')}\n`;
};

describe('a connection\'s contract: counted across processes, dry runs, a ceiling per run', function () {
  this.timeout(120_000);
  let dir = '';
  let sb: Sandbox;
  const outputs: string[] = [];
  /** A run in the test's folder; `state`: its state directory (one shared by default, as on one machine). */
  const run = (args: string[], o: { state?: string; env?: Record<string, string> } = {}): Promise<Run> => {
    const env = { BIZDATA_CONSUMER_KEY: CANARY.consumerKey, BIZDATA_CONSUMER_SECRET: CANARY.consumerSecret, ...o.env };
    return runCli(args, env, o.state ?? join(dir, 'state'), outputs, 60_000);
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-contract-'));
  });
  afterEach(async () => {
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });
  after(() => assertNoCanary(outputs));

  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  /** A connections file with the connection "metered" at the sandbox, stating `maxCalls` a month. */
  const connections = (maxCalls: number, extra: Record<string, unknown> = {}): Promise<string> => {
    const contract = { maxCalls, period: 'month', startsOn: '2024-01-31' };
    const metered = { authUrl: sb.url, baseUrl: sb.url, legacyUrl: sb.url, origin: 'https://app.example.com', contract, ...extra };
    return file('connections.json', JSON.stringify({ active: 'metered', connections: { metered } }));
  };
  const usage = async (conns: string, o: { state?: string; env?: Record<string, string> } = {}): Promise<ContractUsage> => {
    const r = await run(['usage', '--connections', conns, '--json'], o);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as ContractUsage;
  };
  const results = async (path: string): Promise<ResultLine[]> =>
    (await readFile(path, 'utf8').catch(() => '')).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as ResultLine);
  const start = async (o: CustomerOverrides = {}): Promise<void> => {
    sb = await sandbox({ qps: 200, concurrency: 10, ...o });
  };

  it('two processes at once count exactly the data calls the sandbox counted (state directory), and the count survives a restart', async () => {
    await start();
    const conns = await connections(10_000);
    const requests = await file('ip.bizdata.http', IP_FILE);
    const [a, b] = [await file('a.csv', ipRows(40)), await file('b.csv', ipRows(35, 100))];
    const both = await Promise.all([
      run(['send', requests, '--data', a, '--out', join(dir, 'a.jsonl'), '--connections', conns, '--concurrency', '4']),
      run(['send', requests, '--data', b, '--out', join(dir, 'b.jsonl'), '--connections', conns, '--concurrency', '4']),
    ]);
    for (const r of both) assert.equal(r.code, 0, r.stderr);
    const counted = await usage(conns);
    const service = await sb.customer();
    // 75 rows, and a retry after any SC006 the two processes met: each one a call the sandbox counted.
    assert.ok(service.dataCalls >= 75, `${service.dataCalls}`);
    assert.equal(counted.used, service.dataCalls, 'the client counted what the sandbox counted');
    assert.deepEqual([counted.maxCalls, counted.remaining, counted.period], [10_000, 10_000 - counted.used, 'month']);
    // Sign-ins are no data calls: the sandbox issued tokens, the count holds none of them.
    assert.ok(service.tokenRequests >= 1);
    // A new process (a restart) goes on counting from there.
    const again = await run(['send', requests, '--data', await file('c.csv', ipRows(5, 300)), '--out', join(dir, 'c.jsonl'), '--connections', conns]);
    assert.equal(again.code, 0, again.stderr);
    const later = (await usage(conns)).used;
    assert.ok(later >= counted.used + 5);
    assert.equal(later, (await sb.customer()).dataCalls);
  });

  it('two processes with a coordinator and no state in common count exactly what the sandbox counted (real redis-server)', async () => {
    const redis: RedisServer = await startRedis();
    try {
      await start();
      const conns = await connections(10_000, { coordinator: redis.url });
      const requests = await file('ip.bizdata.http', IP_FILE);
      const both = await Promise.all([
        ...[
          ['a', 0],
          ['b', 100],
        ].map(async ([name, from]) => {
          const rows = await file(`${name}.csv`, ipRows(30, Number(from)));
          return run(['send', requests, '--data', rows, '--out', join(dir, `${name}.jsonl`), '--connections', conns], { state: join(dir, `state-${name}`) });
        }),
      ]);
      for (const r of both) assert.equal(r.code, 0, r.stderr);
      const counted = await usage(conns, { state: join(dir, 'state-c') });
      assert.ok(counted.used >= 60, `${counted.used}`);
      assert.equal(counted.used, (await sb.customer()).dataCalls);
      // The key names no account: a hash under the namespace.
      const keys = redis.cli('--scan', '--pattern', 'bizdata:v1:usage:*').trim().split('\n');
      assert.equal(keys.length, 1);
      assert.match(keys[0], /^bizdata:v1:usage:[0-9a-f]{32}:\d{4}-\d{2}-\d{2}$/);
    } finally {
      await redis.stop();
    }
  });

  it('--max-calls never lets the sandbox count more than N for the run, retries included; the rerun does the rest with no row twice', async () => {
    await start({ qps: 1000, concurrency: 4, responseDelayMs: 20 });
    // Two answers of an overloaded gateway (503) among the first calls: each GET sent again, each a call the service counts.
    const busy = { error: { errorCode: 'busy', errorMessage: 'Try again' } };
    await sb.admin('POST', 'faults', { type: 'respond', status: 503, path: '/v1/duns-search/ip/', count: 2, body: busy });
    const conns = await connections(10_000);
    const requests = await file('two.bizdata.http', TWO_REQUESTS);
    const rows = await file('rows.csv', ipRows(20));
    const out = join(dir, 'out.jsonl');
    const args = ['send', requests, '--data', rows, '--out', out, '--connections', conns, '--concurrency', '4'];
    const first = await run([...args, '--max-calls', '15']);
    assert.equal(first.code, 5, first.stderr);
    assert.match(first.stderr, /stopped at the run's ceiling of data calls \(--max-calls\)/);
    const summary = JSON.parse(first.stdout) as { done: number; stoppedBy: { kind: string } };
    assert.equal(summary.stoppedBy.kind, 'ceiling');
    const service = await sb.customer();
    assert.equal(service.resultCodes['fault:respond'], 2, 'the two 503 answers were met and their calls sent again');
    assert.ok(service.dataCalls <= 15, `the sandbox counted ${service.dataCalls} calls for a run of at most 15`);
    assert.equal((await usage(conns)).used, service.dataCalls);
    // Nothing half written: every line is a whole row, done with both its requests.
    const written = await results(out);
    assert.ok(written.length >= 1 && written.length <= 7, `${written.length} rows`);
    for (const l of written) assert.equal(l.ok, true);
    const second = await run(args);
    assert.equal(second.code, 0, second.stderr);
    const all = await results(out);
    assert.equal(all.length, 20);
    assert.equal(new Set(all.map((l) => l.line)).size, 20, 'no row written twice');
    // The service saw the rest, and the count agrees with it.
    assert.equal((await usage(conns)).used, (await sb.customer()).dataCalls);
  });

  it('--dry-run sends nothing, not even a sign-in, and states rows × requests, the rows done and the share of the contract', async () => {
    await start();
    const conns = await connections(100, { qps: 5 });
    const requests = await file('two.bizdata.http', TWO_REQUESTS);
    const rows = await file('rows.csv', ipRows(12));
    const out = join(dir, 'out.jsonl');
    const dry = await run(['send', requests, '--data', rows, '--out', out, '--connections', conns, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /nothing was sent, not even a sign-in/);
    assert.match(dry.stdout, /data calls: 12 rows × 2 requests = 24/);
    assert.match(dry.stdout, /time: about 4\.8 s at 5 calls per second \(the connection's configured limit\)/);
    assert.match(dry.stdout, /contract "metered": 24 % of the 100 calls left this month \(0 of 100 used since/);
    assert.equal((await sb.stats()).requests, 0, 'the sandbox saw no request at all');
    await assert.rejects(readFile(out), 'a dry run writes no results file');
    // After 5 rows are done, the dry run leaves them out; test --json says the same as an object.
    assert.equal((await run(['send', requests, '--data', await file('five.csv', ipRows(5)), '--out', out, '--connections', conns])).code, 0);
    const before = (await sb.stats()).requests;
    const json = await run(['send', requests, '--data', rows, '--out', out, '--connections', conns, '--dry-run']);
    assert.match(json.stdout, /data calls: 12 rows, 5 done before: 7 rows × 2 requests = 14/);
    const test = await run(['test', requests, '--data', rows, '--connections', conns, '--dry-run', '--json']);
    assert.equal(test.code, 0, test.stderr);
    const parsed = JSON.parse(test.stdout) as { dryRun: boolean; connections: Array<{ calls: number; requestsPerRow: number; usage: ContractUsage }> };
    assert.deepEqual([parsed.dryRun, parsed.connections[0].calls, parsed.connections[0].requestsPerRow, parsed.connections[0].usage.used], [true, 24, 2, 10]);
    const ips = await file('ips.txt', '203.0.113.1\n203.0.113.2\n203.0.113.3\n');
    const batch = await run(['batch', ips, '--out', join(dir, 'batch.jsonl'), '--connections', conns, '--dry-run']);
    assert.match(batch.stdout, /data calls: 3 rows × 1 request = 3/);
    assert.equal((await sb.stats()).requests, before, 'no dry run sent anything');
  });

  it('refuses a run over what the contract has left before anything is sent, naming used and remaining; --yes runs it', async () => {
    await start();
    const conns = await connections(30);
    const requests = await file('two.bizdata.http', TWO_REQUESTS);
    const few = await file('few.csv', ipRows(10, 50));
    assert.equal((await run(['send', requests, '--data', few, '--out', join(dir, 'few.jsonl'), '--connections', conns])).code, 0);
    const requestsBefore = (await sb.stats()).requests;
    const rows = await file('rows.csv', ipRows(8));
    const out = join(dir, 'out.jsonl');
    const refused = await run(['send', requests, '--data', rows, '--out', out, '--connections', conns]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /nothing was sent: this run would make 16 data calls on the connection "metered", whose contract has 10 left/);
    assert.match(refused.stderr, /has 10 left this month: 20 of 30 used since \d{4}-\d{2}-\d{2}, resetting on/);
    assert.match(refused.stderr, /--max-calls 10 to stop at what is left, --yes to run it anyway/);
    assert.equal((await sb.stats()).requests, requestsBefore, 'nothing reached the sandbox');
    const eleven = await file('ips.txt', Array.from({ length: 11 }, (_, i) => `203.0.113.${i + 1}`).join('\n'));
    const batch = await run(['batch', eleven, '--out', join(dir, 'b.jsonl'), '--connections', conns]);
    assert.equal(batch.code, 2);
    assert.match(batch.stderr, /11 data calls .* has 10 left/);
    const yes = await run(['send', requests, '--data', rows, '--out', out, '--connections', conns, '--yes']);
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal((await results(out)).length, 8);
    assert.equal((await usage(conns)).used, 36);
  });

  it('after an SC005, no process sends a data call until `bizdata usage --reset`', async () => {
    await start({ contractLimit: 4 });
    const conns = await connections(1000);
    const requests = await file('ip.bizdata.http', IP_FILE);
    const rows = await file('rows.csv', ipRows(10));
    const first = await run(['send', requests, '--data', rows, '--out', join(dir, 'a.jsonl'), '--connections', conns, '--concurrency', '1']);
    assert.equal(first.code, 4, first.stderr);
    assert.match(first.stderr, /SC005/);
    const marked = await usage(conns);
    assert.ok(marked.reachedAt !== undefined && marked.remaining === 0, JSON.stringify(marked));
    const calls = (await sb.customer()).dataCalls;
    // Other processes, other commands: nothing more reaches the service (a sign-in may).
    const lookup = await run(['ip', '203.0.113.9', '--connections', conns]);
    assert.equal(lookup.code, 4);
    assert.match(lookup.stderr, /reached its limit this month: the service answered SC005 at .*nothing was sent/);
    assert.match(lookup.stderr, /bizdata usage --reset --connection metered/);
    const again = await run(['send', requests, '--data', rows, '--out', join(dir, 'b.jsonl'), '--connections', conns, '--yes']);
    assert.equal(again.code, 4);
    assert.equal((await sb.customer()).dataCalls, calls, 'no data call after the SC005');
    // Support raises the limit; the operator lifts the mark; calls go again.
    await sb.admin('POST', `customers/${CUSTOMER}/contract`, { contractLimit: 100 });
    const reset = await run(['usage', '--connections', conns, '--reset']);
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, /lifted the SC005 mark of .*: data calls are sent again/);
    assert.equal((await usage(conns)).reachedAt, undefined);
    assert.equal((await run(['ip', '203.0.113.9', '--connections', conns])).code, 0);
    assert.equal((await sb.customer()).dataCalls, calls + 1);
  });

  it('bizdata usage names what is missing: a connection without a contract, and a contract with a mistake at its line', async () => {
    await start();
    const bare = await file('bare.json', JSON.stringify({ active: 'plain', connections: { plain: { baseUrl: sb.url } } }));
    const none = await run(['usage', '--connections', bare]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /The connection "plain" states no contract/);
    const contract = '"contract": {"maxCalls": 10, "period": "monthly", "startsOn": "2025-02-30", "maxcall": 1}';
    const typo = await file('typo.json', `{"connections": {"m": {"baseUrl": "https://a.example",\n  ${contract}}}}`);
    const bad = await run(['usage', '--connections', typo, '--connection', 'm']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /typo\.json:2:\d+: connection "m", field "contract", "period" must be "day", "month" or "year", not "monthly"\./);
    assert.match(bad.stderr, /not "monthly"\. Did you mean "month"\?/);
    assert.match(bad.stderr, /typo\.json:2:\d+: connection "m", field "contract", "startsOn" must be the first day of a period as YYYY-MM-DD/);
    assert.match(bad.stderr, /unknown field "maxcall"; its fields are maxCalls, period, startsOn\. Did you mean "maxCalls"\?/);
  });
});

// A data run that meets a failure every row would meet (stops.ts: a contract limit SC005, a
// Retry-After longer than the client waits, a token refused after a new one) stops at once, whatever
// its concurrency: no new row starts, and the rows whose calls still wait in the client's limiter are
// dropped unsent (they run again next time). Through the CLI against the real sandbox and its faults,
// with a limiter of one call a second, so that the other rows' calls are waiting when the stop comes.
import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CustomerOverrides, Sandbox } from '../core/harness';
import { canaryEnv, sandboxRuns } from './cliHarness';

const ROWS = 6;
/** Calls a second: the calls waiting in the limiter are 1 / QPS seconds apart, time enough for an answer to come first. */
const QPS = '0.5';
const PATH = '/v1/duns-search/ip/';

interface Stop {
  readonly what: string;
  /** The sandbox for it, started by `start`: its customer's limits, and the faults it answers with. */
  setup(start: (o?: CustomerOverrides) => Promise<Sandbox>): Promise<Sandbox>;
  /** The data calls sent before the stop, at a concurrency: the stopping row's, and those ahead of it in the limiter's queue. */
  sent(concurrency: number): number;
  readonly kind: string;
}

const STOPS: readonly Stop[] = [
  { what: 'a contract limit (SC005)', setup: (start) => start({ contractLimit: 0 }), sent: () => 1, kind: 'limit' },
  {
    what: 'a Retry-After longer than the client waits',
    setup: async (start) => {
      const sb = await start();
      await sb.admin('POST', 'faults', { type: 'respond', path: PATH, status: 429, headers: { 'Retry-After': 3600 }, body: 'Too Many Requests' });
      return sb;
    },
    sent: () => 1,
    kind: 'limit',
  },
  {
    what: 'a token refused after a new one',
    setup: async (start) => {
      const sb = await start();
      await sb.admin('POST', 'faults', { type: 'respond', path: PATH, status: 401, body: { error: { errorCode: 'invalid_token', errorMessage: 'Invalid token' } } });
      return sb;
    },
    // The first row's repeat with a new token waits in the queue behind every other row's first call;
    // the stop drops the other rows' repeats.
    sent: (concurrency) => Math.min(concurrency, ROWS) + 1,
    kind: 'auth',
  },
];

describe('a data run meets a stop of its own: the rows waiting in the limiter are dropped', function () {
  this.timeout(120_000);
  let dir = '';
  const { run, sandbox } = sandboxRuns('bizdata-data-stops-', (d) => (dir = d));

  for (const stop of STOPS) {
    it(`${stop.what}: at concurrency 1 and ${ROWS}, no call is sent after it`, async () => {
      const file = join(dir, 'ips.bizdata.http');
      await writeFile(file, `GET {{baseUrl}}${PATH}{{ip}}?view=standard`);
      const rows = join(dir, 'ips.csv');
      await writeFile(rows, `ip\n${Array.from({ length: ROWS }, (_, i) => `198.51.100.${i + 1}`).join('\n')}\n`);
      for (const concurrency of [1, ROWS]) {
        const sb = await stop.setup(sandbox);
        const out = join(dir, `results-${concurrency}.jsonl`);
        const r = await run(['send', file, '--data', rows, '--out', out, '--concurrency', String(concurrency), '--qps', QPS], canaryEnv(sb.url), 60_000);
        assert.notEqual(r.code, 0, r.stderr);
        const summary = JSON.parse(r.stdout) as { done: number; stoppedBy?: { kind: string } };
        assert.equal(summary.stoppedBy?.kind, stop.kind, r.stdout);
        const sent = (await sb.customer()).dataCalls;
        assert.equal(sent, stop.sent(concurrency), `concurrency ${concurrency}: ${sent} data calls, where ${stop.sent(concurrency)} were sent before the stop\n${r.stdout}${r.stderr}`);
        // What was written is the stopping row alone (or nothing): the others run again next time.
        const written = (await readFile(out, 'utf8').catch(() => '')).trim().split('\n').filter((l) => l !== '');
        assert.ok(written.length <= 1, `concurrency ${concurrency}: ${written.length} rows written`);
      }
    });
  }
});

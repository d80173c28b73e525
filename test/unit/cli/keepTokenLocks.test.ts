// `--keep-token` runs started at the same time: the account's file lock makes them wait for one
// sign-in and share its token, so the service sees one token request, however the runs overlap.
import * as assert from 'node:assert/strict';
import { sandbox, type Sandbox } from '../core/harness';
import { canaryEnv, cliRuns } from './cliHarness';

describe('bizdata --keep-token runs at the same time', () => {
  let sb: Sandbox;
  const { run } = cliRuns('bizdata-locks-', () => undefined);
  afterEach(() => sb?.close());

  it('make one token request between them: the others wait on the lock, then use the kept token', async function () {
    this.timeout(60_000);
    sb = await sandbox();
    // A slow sign-in: every run reaches the lock while the first one's sign-in is still on the wire.
    await sb.admin('POST', 'faults', { type: 'latency', latencyMs: 2000, path: '/v1/token' });
    const env = canaryEnv(sb.url);
    const runs = await Promise.all([1, 2, 3, 4].map((i) => run(['ip', `203.0.113.${i}`, '--keep-token'], env, 40_000)));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const c = await sb.customer();
    assert.equal(c.tokenRequests, 1, 'each run signed in');
  });
});

// Limiters of one account on separate coordinator connections (as separate processes would have)
// spend one budget in a real redis-server: one window, one concurrency count, one pause.
import * as assert from 'node:assert/strict';
import { adaptiveLimiter } from '../../../src/core/limits/adaptiveControl';
import { connectCoordinator } from '../../../src/core/coordination/connect';
import type { Coordinator } from '../../../src/core/coordination/coordinator';
import type { Limiter } from '../../../src/core/ports';
import { startRedis, type RedisServer } from '../redisServer';
import { drive } from './limiterLoad';

describe('shared budget in Redis', function () {
  this.timeout(30_000);
  let redis: RedisServer;
  const open: Coordinator[] = [];
  const limiters: Limiter[] = [];

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const l of limiters.splice(0)) l.dispose();
    for (const c of open.splice(0)) await c.dispose();
    redis.cli('FLUSHALL');
  });

  async function limiter(caps: { qps: number; concurrency: number }): Promise<Limiter> {
    const c = await connectCoordinator({ url: redis.url });
    open.push(c);
    const account = async (): Promise<string> => 'a|loopback:1|shared-budget';
    const l = adaptiveLimiter({ caps, account, memory: c.limits, shared: c.limiter(account) });
    limiters.push(l);
    return l;
  }

  it('holds two limiters together to one window and one concurrency count', async () => {
    const [a, b] = [await limiter({ qps: 10, concurrency: 2 }), await limiter({ qps: 10, concurrency: 2 })];
    const both = { active: 0, peak: 0 };
    const [ra, rb] = await Promise.all([drive(a, 15, 20, both), drive(b, 15, 20, both)]);
    const starts = [...ra.starts, ...rb.starts].sort((x, y) => x - y);
    // Starts are stamped by Redis's clock and seen here a little later: a few ms of slack.
    for (let i = 10; i < starts.length; i++) assert.ok(starts[i] - starts[i - 10] >= 990, `11 starts within ${starts[i] - starts[i - 10]} ms`);
    assert.ok(both.peak <= 2, `${both.peak} in flight at once`);
  });

  it('holds every limiter of the account after one of them was throttled', async () => {
    const [a, b] = [await limiter({ qps: 100, concurrency: 5 }), await limiter({ qps: 100, concurrency: 5 })];
    const p = await a.acquire();
    p.release({ retryAfterMs: 600 });
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    (await b.acquire()).release();
    assert.ok(Date.now() - t0 >= 450, `the other limiter waited only ${Date.now() - t0} ms`);
  });

  it('names the coordinator when it cannot be reached, and refuses a password in its address', async () => {
    await assert.rejects(connectCoordinator({ url: `redis://127.0.0.1:${redis.port + 1}` }), (e: Error) => e.name === 'CoordinatorUnavailableError' && e.message.includes(`redis://127.0.0.1:${redis.port + 1}`));
    await assert.rejects(connectCoordinator({ url: 'redis://:hunter2@127.0.0.1:1' }), (e: Error) => !e.message.includes('hunter2') && /BIZDATA_COORDINATOR_PASSWORD/.test(e.message));
  });
});

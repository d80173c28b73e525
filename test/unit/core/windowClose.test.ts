// One refusal ends sending for the service's window (issue 27): after SC006 no call of the account
// starts until the window that refused it has passed, whatever the limits say, in one process and in
// every process sharing the budget through a real redis-server. Counted on a clock of the test's own,
// and by the answers of a real sandbox (its stats), never by a wall-clock rate.
import * as assert from 'node:assert/strict';
import { COUNT_WINDOW_MS, LocalBudget, SERVICE_PERIOD_MS } from '../../../src/core/limits/budget';
import { RateLimiter } from '../../../src/core/limits/limiter';
import { adaptiveLimiter } from '../../../src/core/limits/adaptiveControl';
import { connectCoordinator } from '../../../src/core/coordination/connect';
import type { Coordinator } from '../../../src/core/coordination/coordinator';
import { startRedis, type RedisServer } from '../redisServer';
import { ok, sandbox, testClient, type Sandbox, type TestClient } from './harness';

const HIGH = { qps: 500, concurrency: 50 };

describe('one refusal closes the window (controlled clock)', () => {
  it('holds every start until the first call the service may count has surely left its window', () => {
    let now = 1000;
    const budget = new LocalBudget(COUNT_WINDOW_MS, () => now);
    const start = (): string => {
      const r = budget.tryStart(HIGH);
      assert.ok(r.ok, JSON.stringify(r));
      return r.id;
    };
    const first = start();
    now = 1010;
    budget.end(first, false);
    now = 1100;
    const refused = start();
    now = 1105;
    budget.end(refused, true);
    // The first call reached the service by 1010, when its answer was read: it leaves by 2010.
    const until = 1010 + SERVICE_PERIOD_MS;
    assert.equal(budget.closeWindow(20), until);
    for (const at of [1105, 1500, until - 1]) {
      now = at;
      const r = budget.tryStart(HIGH);
      assert.ok(!r.ok && r.by === 'pause', `a start at ${at}: ${JSON.stringify(r)}`);
      assert.equal(r.waitMs, until - at);
    }
    now = until;
    assert.ok(budget.tryStart(HIGH).ok, 'the window has passed');
  });

  it('a refusal with nothing of this process in the window closes it for a whole window', () => {
    let now = 5000;
    const budget = new LocalBudget(COUNT_WINDOW_MS, () => now);
    const r = budget.tryStart(HIGH);
    assert.ok(r.ok);
    now = 5003;
    budget.end(r.id, true);
    assert.equal(budget.closeWindow(20), 5003 + SERVICE_PERIOD_MS);
  });

  it('a start at a limit not yet seen at work is spread at its rate, not sent in one burst', () => {
    let now = 0;
    const budget = new LocalBudget(COUNT_WINDOW_MS, () => now);
    assert.ok(budget.tryStart(HIGH).ok);
    const second = budget.tryStart(HIGH);
    assert.ok(!second.ok && second.by === 'qps' && second.waitMs === 2, JSON.stringify(second));
    now = 2;
    assert.ok(budget.tryStart(HIGH).ok);
  });

  it('the limiter reports the hold until the window has passed, whatever its fixed limits', async () => {
    let now = 0;
    const l = new RateLimiter(HIGH, COUNT_WINDOW_MS, () => now, { baseDelayMs: 1 });
    const a = await l.acquire();
    now = 3;
    a.release();
    now = 100;
    const b = await l.acquire();
    now = 104;
    assert.equal(b.release({}), 3 + SERVICE_PERIOD_MS - 104);
    l.dispose();
  });
});

describe('one refusal closes the window (real sandbox)', function () {
  this.timeout(60_000);
  let sb: Sandbox | undefined;
  let clients: TestClient[] = [];
  let redis: RedisServer | undefined;
  const coordinators: Coordinator[] = [];

  afterEach(async () => {
    for (const t of clients) await t.client.dispose();
    clients = [];
    for (const c of coordinators.splice(0)) await c.dispose();
    await sb?.close();
    sb = undefined;
  });
  after(async () => {
    await redis?.stop();
  });

  const lookups = (t: TestClient, n: number, base: number): Promise<void> =>
    (async () => {
      for (let i = 0; i < n; i++) ok(await t.client.lookup({ kind: 'ip', ip: `10.27.${base}.${i}` }));
    })();

  it('one process, caps far above the service: one SC006 ends the probe, nothing more is refused, and the call is retried with the same token', async () => {
    // 4 calls a second at the service; the limiter is told 500/s, one at a time (as `--qps 500 --concurrency 1`).
    sb = await sandbox({ qps: 4, concurrency: 5 });
    const limiter = adaptiveLimiter({ caps: { qps: 500, concurrency: 1 }, account: async () => `a|loopback|window-one-${Date.now()}` });
    const t = testClient(sb.url, { limiter, retry: { baseDelayMs: 1 } });
    clients.push(t);
    await lookups(t, 12, 1);
    limiter.dispose();
    const c = await sb.customer();
    // 12 lookups at 4 a window: the first window ends with one SC006, then the limiter keeps to what the service took.
    assert.equal(c.resultCodes.SC006 ?? 0, 1, `SC006 answered: ${JSON.stringify(c.resultCodes)}`);
    assert.equal(c.dataCalls, 12 + 1, 'the refused call sent once more, and nothing else');
    assert.equal(c.tokenRequests, 1);
  });

  it('one process, fixed limits: the refused call waits for the window, however short its own backoff', async () => {
    sb = await sandbox({ qps: 4, concurrency: 5 });
    const t = testClient(sb.url, { limits: { qps: 500, concurrency: 1 }, retry: { baseDelayMs: 1 } });
    clients.push(t);
    await lookups(t, 5, 2);
    const c = await sb.customer();
    // The fifth call is refused once; sent again only once the window has passed, it is taken.
    assert.equal(c.resultCodes.SC006 ?? 0, 1, `SC006 answered: ${JSON.stringify(c.resultCodes)}`);
    assert.equal(c.dataCalls, 6);
  });

  it('two processes sharing one budget in Redis: one refusal closes the window for both', async () => {
    redis ??= await startRedis();
    redis.cli('FLUSHALL');
    sb = await sandbox({ qps: 4, concurrency: 5 });
    const url = sb.url;
    const id = `a|loopback|window-close-${Date.now()}`;
    const account = async (): Promise<string> => id;
    let refused: () => void = () => undefined;
    const firstRefusal = new Promise<void>((r) => (refused = r));
    // Fixed limits far above the service's, on the shared budget: nothing but the closed window holds them.
    const processes = await Promise.all(
      [0, 1].map(async (i) => {
        const c = await connectCoordinator({ url: (redis as RedisServer).url });
        coordinators.push(c);
        const limiter = new RateLimiter({ qps: 500, concurrency: 1 }, undefined, undefined, { baseDelayMs: 1 }, c.limiter(account).budget);
        const log = (line: string): void => {
          if (i === 0 && line.startsWith('SC006')) refused();
        };
        const t = testClient(url, { limiter, retry: { baseDelayMs: 1 }, tokenStore: c.tokenStore, locks: c.locks, log });
        clients.push(t);
        return { t, limiter };
      }),
    );
    const [a, b] = processes;
    // The first process fills the window and meets its refusal; the second sends a lookup just then.
    await Promise.all([lookups(a.t, 5, 10), firstRefusal.then(() => lookups(b.t, 1, 11))]);
    for (const { limiter } of processes) limiter.dispose();
    const c = await sb.customer();
    // Both wait for the window: the first call to leave it frees one slot, so at most one more refusal.
    const sc006 = c.resultCodes.SC006 ?? 0;
    assert.ok(sc006 >= 1 && sc006 <= 2, `SC006 answered ${sc006} times`);
    assert.equal(c.dataCalls, 6 + sc006, 'each refused call sent once more, and nothing else');
    assert.equal(c.tokenRequests, 1, 'one token for both, retried with it');
  });
});


// One QPS window and one concurrency count per account for every process, kept in Redis and changed
// only by Lua scripts (atomic: two processes never both take the last slot), with Redis's own clock
// so machines whose clocks differ still share one window. After SC006 or 429 the window is closed
// for every process until it has passed: a key every acquire checks. Calls in flight hold a lease, so a process that dies gives its slots back.
import type Redis from 'ioredis';
import type { AdaptiveState } from '../limits/adaptive';
import { parseState } from '../limits/adaptive';
import type { SharedState } from '../limits/adaptiveControl';
import { SERVICE_PERIOD_MS, SERVICE_WINDOW_MS, SURE_WINDOW_MS, type Budget, type StartResult, type SureCount } from '../limits/budget';
import type { Limits } from '../limits/budget';
import type { RedisKeys } from './redisKeys';

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS window, accepted, active, pause, bucket; ARGV id, windowMs, serviceWindowMs, leaseMs, qps|'inf', concurrency, servicePeriodMs. */
const ACQUIRE = `${NOW}
local held = redis.call('PTTL', KEYS[4])
if held > 0 then return {0, 'pause', held} end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local active = redis.call('ZCARD', KEYS[3])
local w = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - w)
-- The rate first, as budget.ts's LocalBudget: calls that wait while it has room wait for concurrency.
if ARGV[5] ~= 'inf' then
  local q = tonumber(ARGV[5])
  local n = redis.call('ZCARD', KEYS[1])
  if n >= q then
    local i = n - math.ceil(q)
    local e = redis.call('ZRANGE', KEYS[1], i, i, 'WITHSCORES')
    return {0, 'qps', math.max(1, tonumber(e[2]) + w - now)}
  end
end
if active >= tonumber(ARGV[6]) then return {0, 'concurrency', -1} end
if ARGV[5] ~= 'inf' then
  local q = tonumber(ARGV[5])
  -- Paced as budget.ts's Pacer: at the limit itself per service second, a tenth of a second's calls at most at once, one at first.
  local rate = q / tonumber(ARGV[7])
  local cap = math.max(1, q / 10)
  local b = redis.call('HMGET', KEYS[5], 't', 'a')
  local tokens = tonumber(b[1]) or 1
  tokens = math.min(cap, tokens + (now - (tonumber(b[2]) or now)) * rate)
  if tokens < 1 then return {0, 'qps', math.max(1, math.ceil((1 - tokens) / rate))} end
  redis.call('HSET', KEYS[5], 't', tostring(tokens - 1), 'a', now)
  redis.call('PEXPIRE', KEYS[5], w * 2)
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
local recent = redis.call('ZCARD', KEYS[2])
local lease = tonumber(ARGV[4])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], w * 2)
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('PEXPIRE', KEYS[2], w * 2)
redis.call('ZADD', KEYS[3], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[3], lease * 2)
return {1, recent, active + 1}`;

/**
 * KEYS active, accepted, done, ended; ARGV id, throttled (1/0), sureWindowMs, servicePeriodMs. Returns
 * the accepted calls of every process whose answers were read by now and that started within the
 * sure window: as LocalBudget.end counts them, they were all at the service within one of its
 * windows. An accepted call is also kept by the time its answer was read, for CLOSE.
 */
const END = `${NOW}
redis.call('ZREM', KEYS[1], ARGV[1])
local started = redis.call('ZSCORE', KEYS[2], ARGV[1])
if ARGV[2] == '1' then redis.call('ZREM', KEYS[2], ARGV[1]) end
local w = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - w)
local sure = redis.call('ZCOUNT', KEYS[3], '(' .. (now - w), '+inf')
if ARGV[2] ~= '1' and started and tonumber(started) > now - w then
  redis.call('ZADD', KEYS[3], started, ARGV[1])
  redis.call('PEXPIRE', KEYS[3], w * 2)
end
if ARGV[2] ~= '1' and started then
  local p = tonumber(ARGV[4])
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - p)
  redis.call('ZADD', KEYS[4], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[4], p * 2)
end
return sure`;

/**
 * KEYS pause, ended; ARGV servicePeriodMs, minMs. A call was refused: the account is closed until
 * the service's window that refused it has passed, as LocalBudget.closeWindow: the first accepted
 * call of any process to leave it has surely left (a window after its answer was read), else a
 * window from now, and at least minMs. The pause key
 * carries "closed until" (Redis's clock) for every process; it is lengthened, never shortened.
 * Returns the hold in ms.
 */
const CLOSE = `${NOW}
local p = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - p)
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local leaves = now
if first[2] then leaves = tonumber(first[2]) end
local ms = math.floor(math.max(tonumber(ARGV[2]), leaves + p - now))
if ms > 0 and redis.call('PTTL', KEYS[1]) < ms then redis.call('SET', KEYS[1], tostring(now + ms), 'PX', ms) end
return ms`;

/** KEYS state; ARGV base JSON ('' for none), next JSON, ttl seconds: compare and set; returns the state now. */
const SWAP = `local cur = redis.call('GET', KEYS[1])
if (cur == false and ARGV[1] == '') or cur == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return ARGV[2]
end
return cur`;

interface BudgetCommands {
  bizAcquire(w: string, a: string, act: string, p: string, bucket: string, id: string, windowMs: number, serviceMs: number, leaseMs: number, qps: string, conc: number, periodMs: number): Promise<[number, number | string, number]>;
  bizEnd(act: string, acc: string, done: string, ended: string, id: string, throttled: string, sureMs: number, periodMs: number): Promise<number>;
  bizClose(p: string, ended: string, periodMs: number, minMs: number): Promise<number>;
  bizSwap(k: string, base: string, next: string, ttl: number): Promise<string | null>;
}

export function defineBudgetScripts(redis: Redis): BudgetCommands {
  redis.defineCommand('bizAcquire', { numberOfKeys: 5, lua: ACQUIRE });
  redis.defineCommand('bizEnd', { numberOfKeys: 4, lua: END });
  redis.defineCommand('bizClose', { numberOfKeys: 2, lua: CLOSE });
  redis.defineCommand('bizSwap', { numberOfKeys: 1, lua: SWAP });
  return redis as unknown as BudgetCommands;
}

/** A call in flight longer than this (HTTP timeouts included) is taken to have died with its process. */
const LEASE_MS = 120_000;
/** The shared adaptive state outlives a run by a day; what is learned for good is in the limits store. */
const STATE_TTL_S = 86_400;

export class RedisBudget implements Budget {
  readonly shared = true;
  private keys: Promise<RedisKeys> | undefined;
  private seq = 0;
  private readonly prefix = `${process.pid}.${Math.random().toString(36).slice(2, 8)}.`;

  constructor(
    private readonly cmd: BudgetCommands,
    private readonly keysFor: () => Promise<RedisKeys>,
    private readonly windowMs: number,
    /** Turns a Redis failure into the coordinator's error. */
    private readonly guard: <T>(p: Promise<T>) => Promise<T>,
  ) {}

  async tryStart(limits: Limits): Promise<StartResult> {
    const k = await (this.keys ??= this.keysFor());
    const id = this.prefix + ++this.seq;
    const qps = Number.isFinite(limits.qps) ? String(limits.qps) : 'inf';
    const [ok, a, b] = await this.guard(this.cmd.bizAcquire(k.window, k.accepted, k.active, k.pause, k.bucket, id, this.windowMs, SERVICE_WINDOW_MS, LEASE_MS, qps, limits.concurrency, SERVICE_PERIOD_MS));
    if (ok === 1) return { ok: true, id, recent: Number(a), level: b };
    return { ok: false, by: a as 'pause' | 'qps' | 'concurrency', waitMs: b };
  }

  /**
   * The calls every process surely had accepted with it, from the answers read by now (see END);
   * undefined when the coordinator cannot say, and the count at the call's start stands.
   */
  async end(id: string, throttled: boolean): Promise<SureCount | undefined> {
    // Best effort: when the coordinator is gone, the lease runs out by itself.
    const sure = await this.keys?.then((k) => this.cmd.bizEnd(k.active, k.accepted, k.done, k.ended, id, throttled ? '1' : '0', SURE_WINDOW_MS, SERVICE_PERIOD_MS)).catch(() => undefined);
    return sure === undefined ? undefined : { recent: sure };
  }

  /** Closes the window for every process (see CLOSE); this process learns the time at its next start. */
  closeWindow(minMs: number): undefined {
    void this.keys?.then((k) => this.cmd.bizClose(k.pause, k.ended, SERVICE_PERIOD_MS, Math.max(1, Math.round(minMs)))).catch(() => undefined);
    return undefined;
  }

  dispose(): void {}
}

/** The adaptive state of an account, compare-and-set in Redis. */
export class RedisSharedState implements SharedState {
  constructor(
    private readonly redis: Redis,
    private readonly cmd: BudgetCommands,
    private readonly key: string,
    private readonly guard: <T>(p: Promise<T>) => Promise<T>,
  ) {}

  async load(): Promise<AdaptiveState | undefined> {
    return parse(await this.guard(this.redis.get(this.key)));
  }

  async swap(base: AdaptiveState | undefined, next: AdaptiveState): Promise<AdaptiveState> {
    const now = await this.guard(this.cmd.bizSwap(this.key, base ? JSON.stringify(base) : '', JSON.stringify(next), STATE_TTL_S));
    return parse(now) ?? next;
  }
}

function parse(raw: string | null): AdaptiveState | undefined {
  if (raw === null) return undefined;
  try {
    return parseState(JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
}

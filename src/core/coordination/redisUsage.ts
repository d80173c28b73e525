// The contract's count of data calls on Redis, for every process on every machine: one counter per
// scope and period (`bizdata:v1:usage:<hash>:<YYYY-MM-DD>`) and the SC005 mark beside it
// (`…:reached:…`), both kept past the period's end and then expired. A call is counted by one Lua script
// that first looks for the mark, so no process counts a call in a period another has marked reached.
import type Redis from 'ioredis';
import type { UsageRecord, UsageStore } from '../ports';
import { accountHash, NAMESPACE } from './redisKeys';

/** KEYS count, reached; ARGV keep ms: -1 when the period is marked reached (its time in the second value), else the count. */
const TAKE = `local mark = redis.call('GET', KEYS[2])
if mark then return {-1, mark} end
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return {n, ''}`;
/** KEYS count: gives back one call, never below 0. */
const GIVE_BACK = `local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

interface UsageCommands {
  bizUsageTake(count: string, reached: string, keepMs: number): Promise<[number, string]>;
  bizUsageGiveBack(count: string): Promise<number>;
}

function keys(scope: string, period: string): { readonly count: string; readonly reached: string } {
  const h = accountHash(scope);
  return { count: `${NAMESPACE}:usage:${h}:${period}`, reached: `${NAMESPACE}:reached:${h}:${period}` };
}

/** The usage store on a connected client; `guard` turns a Redis failure into the coordinator's error. */
export function redisUsageStore(redis: Redis, guard: <T>(p: Promise<T>) => Promise<T>): UsageStore {
  redis.defineCommand('bizUsageTake', { numberOfKeys: 2, lua: TAKE });
  redis.defineCommand('bizUsageGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  const cmd = redis as unknown as UsageCommands;
  return {
    async take(scope, period, keepMs) {
      const k = keys(scope, period);
      const [n, mark] = await guard(cmd.bizUsageTake(k.count, k.reached, Math.max(1, Math.ceil(keepMs))));
      return n >= 0 ? { counted: true } : { counted: false, reachedAt: Number(mark) || 0 };
    },
    async giveBack(scope, period) {
      await guard(cmd.bizUsageGiveBack(keys(scope, period).count));
    },
    async read(scope, period): Promise<UsageRecord> {
      const k = keys(scope, period);
      const [count, mark] = await guard(redis.mget(k.count, k.reached));
      const used = Math.max(0, Number(count ?? 0) || 0);
      return mark === null ? { used } : { used, reachedAt: Number(mark) || 0 };
    },
    async markReached(scope, period, at, keepMs) {
      await guard(redis.set(keys(scope, period).reached, String(at), 'PX', Math.max(1, Math.ceil(keepMs))));
    },
    async clearReached(scope, period) {
      await guard(redis.del(keys(scope, period).reached));
    },
  };
}

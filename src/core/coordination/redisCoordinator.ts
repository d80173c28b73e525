// The coordinator on Redis (ioredis: the most used Node client, with Lua script helpers and TLS).
// Tokens are kept only until they expire; a sign-in lock expires by itself if its holder dies; guard
// counts change by atomic increments; every key is namespaced, hashed and has a TTL.
import { SHARED_COUNT_WINDOW_MS } from '../limits/budget';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { StoredToken } from '../model';
import { CoordinatorUnavailableError, type AccountLocks, type AttemptOutcome, type GuardStore, type LearnedLimits, type LimitsStore, type TokenStore } from '../ports';
import type { Coordinator, CoordinatorAddress, CoordinatorOptions } from './coordinator';
import { sealTokens } from '../storage/sealing';
import { defineBudgetScripts, RedisBudget, RedisSharedState } from './redisBudget';
import { redisKeys } from './redisKeys';
import { redisUsageStore } from './redisUsage';

const DAY_S = 86_400;
/** Guard counts and learned limits are kept a month after their last change. */
const KEEP_S = 30 * DAY_S;
const LOCK_MS = 15_000;

/** KEYS token; ARGV value: deletes the token only while it is that one. */
const DELETE_IF = `local v = redis.call('GET', KEYS[1])
if v and cjson.decode(v).value == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;
/** KEYS guard; ARGV outcome, ttl: settles an attempt counted by INCR. */
const GUARD_END = `local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if ARGV[1] == 'accepted' then redis.call('DEL', KEYS[1]) return 0 end
if ARGV[1] == 'uncounted' then n = n - 1 end
if n <= 0 then redis.call('DEL', KEYS[1]) return 0 end
redis.call('SET', KEYS[1], n, 'EX', ARGV[2])
return n`;
/** KEYS lock; ARGV owner, ms ('' to release): extends or releases a lock only for its owner. */
const LOCK_OWNED = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`;

interface StoreCommands {
  bizDeleteIf(k: string, value: string): Promise<number>;
  bizGuardEnd(k: string, outcome: AttemptOutcome, ttl: number): Promise<number>;
  bizLockOwned(k: string, owner: string, ms: string): Promise<number>;
}

/** Redis's word for a client that is not authenticated or gave a wrong password (Redis 6+ and older), if that is what `message` is. */
function authRefusal(message: string): string | undefined {
  return /^(NOAUTH|WRONGPASS|ERR invalid password)\b/i.exec(message)?.[1];
}

export async function connectRedis(address: CoordinatorAddress, o: CoordinatorOptions): Promise<Coordinator> {
  let lastError = '';
  let connected = false;
  const redis = new Redis({
    host: address.host,
    port: address.port,
    db: address.db,
    username: o.username,
    password: o.password,
    tls: address.tls ? {} : undefined,
    lazyConnect: true,
    connectTimeout: o.connectTimeoutMs ?? 3000,
    commandTimeout: 3000,
    // Fail at once while disconnected: a call must not wait, unseen, for a coordinator that is gone.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A first connection that fails is final (null: no reconnect is scheduled), so the client ends
    // with nothing left to cancel; reconnecting is for a coordinator lost after it answered.
    retryStrategy: (times) => (connected ? Math.min(200 * times, 2000) : null),
  });
  // ioredis prints unhandled 'error' events; the reason goes into our own message instead.
  redis.on('error', (err: Error) => (lastError = err.message));
  const unavailable = (err: unknown): CoordinatorUnavailableError => {
    const why = err instanceof Error ? err.message : String(err);
    // A refused AUTH closes the connection: ioredis rejects with "Connection is closed." and the
    // server's own reason (WRONGPASS, NOAUTH) came as an 'error' event just before.
    const refusal = [why, lastError].map(authRefusal).find((r) => r !== undefined);
    if (refusal !== undefined) {
      const what = o.password === undefined ? 'asks for a password and none was given' : `refused the ${o.username === undefined ? 'password' : 'user and password'} given`;
      return new CoordinatorUnavailableError(`Authentication failed: the coordinator ${address.name} ${what} (${refusal}).`, 'auth');
    }
    return new CoordinatorUnavailableError(`The coordinator ${address.name} cannot be reached (${why || lastError || 'connection lost'}).`);
  };
  const guard = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } catch (err) {
      throw unavailable(err);
    }
  };
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    // disconnect() on a client that has already ended would arm ioredis's disconnectTimeout (2 s) on
    // the closed socket, a timer that keeps the command line from exiting.
    if (redis.status !== 'end') redis.disconnect();
    throw unavailable(err);
  }
  connected = true;
  redis.defineCommand('bizDeleteIf', { numberOfKeys: 1, lua: DELETE_IF });
  redis.defineCommand('bizGuardEnd', { numberOfKeys: 1, lua: GUARD_END });
  redis.defineCommand('bizLockOwned', { numberOfKeys: 1, lua: LOCK_OWNED });
  const cmd = redis as unknown as StoreCommands;
  const budgetCmd = defineBudgetScripts(redis);

  // Sealed with the account's secret: a reader of Redis learns nothing usable.
  const tokenStore: TokenStore = sealTokens({
    async get({ key }) {
      const raw = await guard(redis.get(redisKeys(key).token));
      if (raw === null) return undefined;
      try {
        const t = JSON.parse(raw) as StoredToken;
        return typeof t.value === 'string' && typeof t.expiresAt === 'number' && typeof t.issuedAt === 'number' ? t : undefined;
      } catch {
        return undefined;
      }
    },
    async set({ key }, t) {
      const ttl = t.expiresAt - Date.now();
      if (ttl > 0) await guard(redis.set(redisKeys(key).token, JSON.stringify(t), 'PX', ttl));
    },
    async delete({ key }, ifValue) {
      const k = redisKeys(key).token;
      await guard(ifValue === undefined ? redis.del(k) : cmd.bizDeleteIf(k, ifValue));
    },
  });

  const guardStore: GuardStore = {
    async read(account) {
      return Number((await guard(redis.get(redisKeys(account).guard))) ?? 0);
    },
    async begin(account) {
      const k = redisKeys(account).guard;
      const [[, after]] = (await guard(redis.multi().incr(k).expire(k, KEEP_S).exec())) as [[unknown, number]];
      return after - 1;
    },
    async end(account, outcome) {
      await guard(cmd.bizGuardEnd(redisKeys(account).guard, outcome, KEEP_S));
    },
  };

  const locks: AccountLocks = {
    async withLock(key, run, signal) {
      const k = redisKeys(key).lock;
      const owner = randomBytes(12).toString('hex');
      for (let attempt = 0; (await guard(redis.set(k, owner, 'PX', LOCK_MS, 'NX'))) !== 'OK'; attempt++) {
        if (signal?.aborted) throw Object.assign(new Error('The call was cancelled.'), { name: 'AbortError' });
        await new Promise((r) => setTimeout(r, Math.min(200, 20 + attempt * 10) * (0.5 + Math.random())));
      }
      // Kept alive while the holder works; expires by itself if the holder dies.
      const renew = setInterval(() => void cmd.bizLockOwned(k, owner, String(LOCK_MS)).catch(() => undefined), LOCK_MS / 3);
      try {
        return await run();
      } finally {
        clearInterval(renew);
        await cmd.bizLockOwned(k, owner, '').catch(() => undefined);
      }
    },
  };

  const limits: LimitsStore = {
    async get(account) {
      const raw = await guard(redis.get(redisKeys(account).limits));
      if (raw === null) return undefined;
      try {
        return JSON.parse(raw) as LearnedLimits;
      } catch {
        return undefined;
      }
    },
    async set(account, l) {
      await guard(redis.set(redisKeys(account).limits, JSON.stringify(l), 'EX', KEEP_S));
    },
  };

  return {
    name: address.name,
    tokenStore,
    guardStore,
    locks,
    limits,
    usage: redisUsageStore(redis, guard),
    limiter: (account) => ({
      state: (a) => new RedisSharedState(redis, budgetCmd, redisKeys(a).state, guard),
      budget: new RedisBudget(
        budgetCmd,
        async () => {
          const a = await account();
          if (a === undefined) throw new CoordinatorUnavailableError('No account to share a budget for.');
          return redisKeys(a);
        },
        o.windowMs ?? SHARED_COUNT_WINDOW_MS,
        guard,
      ),
    }),
    async dispose() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

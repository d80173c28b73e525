// What the command line shares with other processes: by default the state directory of this machine
// (guard counts and sign-in locks under file locks, learned limits, and tokens with --keep-token);
// with --coordinator, Redis, for every process on every machine. Also the limits: caps from --qps and
// --concurrency, `auto` (no cap) by default, and the adaptive limiter that finds the real ones.
import type { Caps } from '../core/limits/adaptive';
import { adaptiveLimiter } from '../core/limits/adaptiveControl';
import { connectCoordinator } from '../core/coordination/connect';
import { CoordinatorUrlError, type Coordinator } from '../core/coordination/coordinator';
import { FileGuardStore, FileLimitsStore, FileLocks, fileTokenStore } from '../core/storage/fileStores';
import type { Endpoints, InterfaceId } from '../core/model';
import { CoordinatorUnavailableError, type AccountLocks, type CredentialProvider, type GuardStore, type LearnedLimits, type Limiter, type LimitsStore, type TokenStore, type UsageStore } from '../core/ports';
import { accountKey, normaliseHost } from '../core/accounts/session';
import { checkStateDir, defaultStateDir, type StateDirCheck } from '../core/storage/stateDir';
import { MemoryTokenStore } from '../core/storage/stores';
import { FileUsageStore } from '../core/storage/usageFiles';
import type { RunRate } from '../core/contract/estimate';

export const SHARING_OPTIONS = {
  coordinator: { type: 'string' },
  'keep-token': { type: 'boolean' },
} as const;

export const SHARING_HELP = `Limits and sharing:
  --qps N|auto         cap on requests per second, and where calls start; auto finds the account's limit
                                                                           [BIZDATA_QPS, default auto]
  --concurrency N|auto cap on requests in flight, and where it starts; auto finds it
                                                                           [BIZDATA_CONCURRENCY, default auto]
  --keep-token         keep the token between runs, in the state directory, readable by you alone
                       and sealed with the account's secret (refused in a folder others can read)
  --coordinator URL    share tokens, guard counts and one rate budget with every process through
                       Redis: redis://HOST:PORT or rediss://HOST:PORT      [BIZDATA_COORDINATOR]
                       (password only from BIZDATA_COORDINATOR_PASSWORD, user from BIZDATA_COORDINATOR_USER)
  The state directory (guard counts, learned limits, contracts' counts, kept tokens) is $BIZDATA_STATE_DIR, else
  $XDG_STATE_HOME/bizdata or ~/.local/state/bizdata: the extension uses the same one.
`;

export interface SharingValues {
  readonly coordinator?: string;
  readonly 'keep-token'?: boolean;
  readonly qps?: string;
  readonly concurrency?: string;
}

export interface Sharing {
  readonly tokenStore: TokenStore;
  readonly guardStore: GuardStore;
  readonly locks: AccountLocks;
  readonly limiter: Limiter;
  /** The contracts' counts of data calls (state directory or coordinator). */
  readonly usage: UsageStore;
  /** What the account's limiter learned, as remembered (state directory or coordinator). */
  learned(): Promise<LearnedLimits | undefined>;
  /** The rate calls go out at, for an estimate: the cap when one is set, else what was learned. */
  rate(): Promise<RunRate>;
  close(): Promise<void>;
}

/** Thrown for a coordinator address or connection that cannot be used: exit 2, nothing sent. */
export class SharingError extends Error {}

/** `auto` (or nothing) is no cap; otherwise a positive number. */
export function parseCap(label: string, value: string | undefined): number {
  if (value === undefined || value.trim().toLowerCase() === 'auto') return Infinity;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new SharingError(`${label} must be a positive number or auto, not "${value}".`);
  return n;
}

export function capsFrom(values: SharingValues, env: NodeJS.ProcessEnv): Caps {
  return {
    qps: parseCap('--qps', values.qps ?? (env.BIZDATA_QPS || undefined)),
    concurrency: Math.floor(parseCap('--concurrency', values.concurrency ?? (env.BIZDATA_CONCURRENCY || undefined))),
  };
}

/**
 * Connects to the coordinator first (so an unreachable one stops the command before anything is
 * sent), then builds the stores and the limiter of the account `needs` names.
 */
export async function openSharing(
  values: SharingValues,
  env: NodeJS.ProcessEnv,
  endpoints: Endpoints,
  /** The interface whose account the budget is of; 'any' (a request file): the service's host. */
  needs: InterfaceId | 'any',
  credentials: CredentialProvider,
  log?: (line: string) => void,
  /** Always shown: the state folder is open to other users. */
  warn?: (line: string) => void,
): Promise<Sharing> {
  const caps = capsFrom(values, env);
  const coordinator = await coordinatorOf(values, env);
  const dir = defaultStateDir(env);
  // With a coordinator, nothing of this command is kept in the state folder.
  const folder: StateDirCheck = coordinator ? { keepTokens: false } : await checkStateDir(dir, values['keep-token'] === true);
  if (folder.warning !== undefined) warn?.(folder.warning);
  const account = async (): Promise<string | undefined> => {
    if (needs === 'any') return `any|${normaliseHost(endpoints.legacyUrl || endpoints.authUrl)}`;
    const c = await credentials(needs).catch(() => undefined);
    return c ? accountKey(endpoints, c) : undefined;
  };
  const memory: LimitsStore = coordinator?.limits ?? new FileLimitsStore(dir);
  const limiter = adaptiveLimiter({ caps, account, memory, shared: coordinator?.limiter(account), log });
  const usage: UsageStore = coordinator?.usage ?? new FileUsageStore(dir);
  const learned = async (): Promise<LearnedLimits | undefined> => {
    const a = await account();
    return a === undefined ? undefined : memory.get(a);
  };
  return {
    tokenStore: coordinator?.tokenStore ?? (folder.keepTokens ? fileTokenStore(dir) : new MemoryTokenStore()),
    guardStore: coordinator?.guardStore ?? new FileGuardStore(dir),
    locks: coordinator?.locks ?? new FileLocks(dir),
    limiter,
    usage,
    learned,
    rate: async () => {
      if (Number.isFinite(caps.qps)) return { qps: caps.qps, from: 'configured' };
      // Only an account's own credentials name what it learned: a rate without asking for them (a prompt) is unknown.
      const l = await learned().catch(() => undefined);
      return l ? { qps: l.qps, from: 'learned' } : {};
    },
    close: async () => {
      // What the limiter learned last goes to the store before the coordinator's connection closes.
      await limiter.close();
      usage.close?.();
      await coordinator?.dispose();
    },
  };
}

/** The coordinator of --coordinator or BIZDATA_COORDINATOR, connected; undefined without one. Refusals are SharingErrors: nothing was sent. */
export async function coordinatorOf(values: Pick<SharingValues, 'coordinator'>, env: NodeJS.ProcessEnv): Promise<Coordinator | undefined> {
  const url = values.coordinator ?? (env.BIZDATA_COORDINATOR || undefined);
  if (url === undefined) return undefined;
  try {
    return await connectCoordinator({ url, password: env.BIZDATA_COORDINATOR_PASSWORD || undefined, username: env.BIZDATA_COORDINATOR_USER || undefined });
  } catch (err) {
    if (err instanceof CoordinatorUrlError) throw new SharingError(err.message);
    if (CoordinatorUnavailableError.is(err)) {
      const fix = err.reason === 'auth' ? ' Set BIZDATA_COORDINATOR_PASSWORD (and BIZDATA_COORDINATOR_USER, for a Redis ACL user) to what the coordinator expects.' : '';
      throw new SharingError(`${err.message} Nothing was sent to the service.${fix}`);
    }
    throw err;
  }
}

/** Lookups a batch keeps going at once: the cap, or with `auto` enough for the limiter to find the account's concurrency. */
export function batchWorkers(values: SharingValues, env: NodeJS.ProcessEnv): number {
  const cap = capsFrom(values, env).concurrency;
  return Number.isFinite(cap) ? cap : AUTO_BATCH_WORKERS;
}

const AUTO_BATCH_WORKERS = 64;

// What this window's client shares: with the command line and other windows on this machine, the
// state directory (guard counts under a file lock, sign-in locks, learned limits; tokens stay in
// SecretStorage; the contracts' counts of data calls); with other machines, when
// bizdata.coordination.redisUrl is set, Redis (loaded only then). The sandbox keeps everything in
// memory, apart from the user's real accounts.
import * as vscode from 'vscode';
import { adaptiveLimiter } from '../../core/limits/adaptiveControl';
import { connectCoordinator } from '../../core/coordination/connect';
import { CoordinatorUrlError, parseCoordinatorUrl, type Coordinator } from '../../core/coordination/coordinator';
import { deferredCoordinator } from '../../core/coordination/deferred';
import { FileGuardStore, FileLimitsStore, FileLocks } from '../../core/storage/fileStores';
import type { RateLimiter } from '../../core/limits/limiter';
import { CoordinatorUnavailableError, type AccountLocks, type GuardStore, type TokenStore, type UsageStore } from '../../core/ports';
import { checkStateDir, defaultStateDir } from '../../core/storage/stateDir';
import { MemoryGuardStore, MemoryTokenStore, MemoryUsageStore } from '../../core/storage/stores';
import { FileUsageStore } from '../../core/storage/usageFiles';
import { UserError } from '../shared/userError';
import type { ConnectionSettings } from './settings';
import { migrateGuardCounts, SecretTokenStore } from './stores';

export const COORDINATOR_PASSWORD_KEY = 'bizdata.coordination.password';
const SET_PASSWORD_COMMAND = 'Business Data: Set Coordinator Password';

export interface WindowSharing {
  readonly tokenStore: TokenStore;
  readonly guardStore: GuardStore;
  readonly locks?: AccountLocks;
  readonly limiter: RateLimiter;
  /** The contracts' counts of data calls (core/contract/meter.ts). */
  readonly usage: UsageStore;
  /** Disposes the limiter and closes the coordinator's connection. */
  dispose(): void;
}

export interface SharingInputs {
  readonly context: vscode.ExtensionContext;
  readonly settings: ConnectionSettings;
  readonly sandbox: boolean;
  /** The account whose budget and learned limits these are: the interface in use. */
  readonly account: () => Promise<string | undefined>;
  readonly log: (line: string) => void;
  /** Shows a warning the user should act on (the state folder is open to other users). */
  readonly warn: (text: string) => void;
}

/** The state directory this window shares with the command line (`BIZDATA_STATE_DIR` or the default). */
export function stateDirectory(): string {
  return defaultStateDir(process.env);
}

export function openWindowSharing(o: SharingInputs): WindowSharing {
  const caps = o.settings.limits;
  if (o.sandbox) {
    const limiter = adaptiveLimiter({ caps, account: o.account, log: o.log });
    return { tokenStore: new MemoryTokenStore(), guardStore: new MemoryGuardStore(), limiter, usage: new MemoryUsageStore(), dispose: () => limiter.dispose() };
  }
  const coordinator = o.settings.redisUrl !== undefined ? connect(o.settings.redisUrl, o.context.secrets) : undefined;
  const dir = stateDirectory();
  // Tokens stay in SecretStorage; the folder still holds the guard's counts, which others must not reset.
  void checkStateDir(dir, false).then((c) => c.warning !== undefined && o.warn(c.warning));
  const guard = new FileGuardStore(dir);
  // The counts this extension kept in globalState before move to the shared directory, once.
  const migrated = migrateGuardCounts(o.context.globalState, guard);
  const limiter = adaptiveLimiter({ caps, account: o.account, memory: coordinator?.limits ?? new FileLimitsStore(dir), shared: coordinator?.limiter(o.account), log: o.log });
  const usage = coordinator?.usage ?? new FileUsageStore(dir);
  return {
    tokenStore: coordinator?.tokenStore ?? new SecretTokenStore(o.context.secrets),
    guardStore: coordinator?.guardStore ?? afterMigration(guard, migrated),
    locks: coordinator?.locks ?? new FileLocks(dir),
    limiter,
    usage,
    dispose: () => {
      // What the limiter learned last goes to the store before the coordinator's connection closes.
      usage.close?.();
      void limiter.close().finally(() => coordinator?.dispose());
    },
  };
}

/** Redis, connected in the background: calls wait for it, and fail naming it if it cannot be reached. */
function connect(url: string, secrets: vscode.SecretStorage): Coordinator {
  let name: string;
  try {
    name = parseCoordinatorUrl(url).name;
  } catch (err) {
    if (err instanceof CoordinatorUrlError) throw new UserError(`The setting bizdata.coordination.redisUrl cannot be used: ${err.message}`);
    throw err;
  }
  const connecting = Promise.resolve(secrets.get(COORDINATOR_PASSWORD_KEY))
    .then((password) => connectCoordinator({ url, password }))
    .catch((err: unknown) => {
      // Refused: say where the password is set in the editor.
      if (!CoordinatorUnavailableError.is(err) || err.reason !== 'auth') throw err;
      throw new CoordinatorUnavailableError(err.message, 'auth', `Nothing was sent for this call. Run "${SET_PASSWORD_COMMAND}" with the coordinator's password, then try again.`);
    });
  return deferredCoordinator(name, connecting);
}

function afterMigration(store: GuardStore, migrated: Promise<void>): GuardStore {
  const after = async <T>(run: () => Promise<T>): Promise<T> => {
    await migrated;
    return run();
  };
  return {
    read: (a) => after(() => store.read(a)),
    begin: (a) => after(() => store.begin(a)),
    end: (a, outcome) => after(() => store.end(a, outcome)),
    doubt: (a) => after(async () => store.doubt?.(a)),
  };
}

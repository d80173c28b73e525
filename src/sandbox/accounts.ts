// The accounts of one sandbox: Interface A keys and Interface B users, their hashes, lockout and
// failure counts. Authentication of one user runs one attempt at a time, so the lock decision and
// the token are never made on a stale failure count: three wrong passwords racing a right one end
// exactly as some order of them one after the other would.
import { LOCKOUT_AFTER_FAILURES } from '../core/constants';
import type { SandboxCustomerConfig } from './config';
import { type Customer, subscriberExpired } from './customers';
import { KeyedSerializer } from './queues';
import { type SecretChecker, hashSecret, isSecretHash } from './secrets';

export type AuthFailure = 'unknown' | 'bad-secret' | 'locked' | 'credentials-expired' | 'subscriber-expired';

export type AuthOutcome =
  | { readonly ok: true; readonly token: string; readonly customer: Customer }
  | { readonly ok: false; readonly reason: AuthFailure; readonly customer?: Customer };

/** What the state file keeps of a user: never the password, a changed one only as its scrypt hash. */
export interface PersistedUser {
  failures: number;
  locked: boolean;
  /** Present only after an admin password change; the config's password applies otherwise. */
  passwordHash?: string;
}

interface User {
  readonly name: string;
  readonly customer: Customer;
  readonly configHash: string;
  passwordHash: string;
  failures: number;
  locked: boolean;
  readonly credentialsExpired: boolean;
}

interface Client {
  readonly customer: Customer;
  readonly secretHash: string;
}

export interface AccountHooks {
  readonly now: () => number;
  /** Makes a token for a principal that passed every check. */
  readonly issue: (kind: 'a' | 'b', customer: Customer, principal: string) => string;
  /** A user's lock, failure count or password hash changed. */
  readonly userChanged: (name: string) => void;
}

export class Accounts {
  private readonly users = new Map<string, User>();
  private readonly clients = new Map<string, Client>();
  private readonly attempts = new KeyedSerializer();
  /** A hash no secret matches: unknown names pay for one scrypt, as known ones do. */
  private dummyHash = '';

  private constructor(private readonly checker: SecretChecker, private readonly hooks: AccountHooks) {}

  /** Hashes every configured secret once, here, in parallel (nothing else competes at start). */
  static async create(customers: ReadonlyArray<readonly [SandboxCustomerConfig, Customer]>, checker: SecretChecker, hooks: AccountHooks): Promise<Accounts> {
    const accounts = new Accounts(checker, hooks);
    const hashing: Promise<void>[] = [hashSecret('no secret matches this', checker.cost).then((h) => void (accounts.dummyHash = h))];
    for (const [config, customer] of customers) {
      for (const cl of config.clients ?? []) {
        hashing.push(hashSecret(cl.consumerSecret, checker.cost).then((secretHash) => void accounts.clients.set(cl.consumerKey, { customer, secretHash })));
      }
      for (const u of config.users ?? []) {
        hashing.push(hashSecret(u.password, checker.cost).then((configHash) => void accounts.users.set(u.user, {
          name: u.user, customer, configHash, passwordHash: configHash, failures: 0, locked: u.locked === true, credentialsExpired: u.credentialsExpired === true,
        })));
      }
    }
    await Promise.all(hashing);
    return accounts;
  }

  async authenticateClient(consumerKey: string, secret: string): Promise<AuthOutcome> {
    const client = this.clients.get(consumerKey);
    if (client === undefined) {
      await this.checker.spend(secret, this.dummyHash);
      return fail('unknown');
    }
    const customer = client.customer;
    customer.stats.tokenRequests += 1;
    if (!(await this.checker.verify(`a:${consumerKey}`, secret, client.secretHash))) return fail('bad-secret', customer);
    if (subscriberExpired(customer, this.hooks.now())) return fail('subscriber-expired', customer);
    return this.grant('a', customer, consumerKey);
  }

  async authenticateUser(name: string, password: string): Promise<AuthOutcome> {
    const user = this.users.get(name);
    if (user === undefined) {
      await this.checker.spend(password, this.dummyHash);
      return fail('unknown');
    }
    user.customer.stats.tokenRequests += 1;
    return this.attempts.run(name, () => this.attemptUser(user, password));
  }

  /** One attempt, alone for its user: reads the lock and count after the previous attempt finished. */
  private async attemptUser(user: User, password: string): Promise<AuthOutcome> {
    const customer = user.customer;
    // Runs scrypt even for a locked account, so its answer takes as long as any other.
    const right = await this.checker.verify(`b:${user.name}`, password, user.passwordHash);
    if (user.locked) return fail('locked', customer);
    if (!right) {
      user.failures += 1;
      if (user.failures >= LOCKOUT_AFTER_FAILURES) user.locked = true;
      this.hooks.userChanged(user.name);
      return fail('bad-secret', customer);
    }
    if (user.credentialsExpired) return fail('credentials-expired', customer);
    if (subscriberExpired(customer, this.hooks.now())) return fail('subscriber-expired', customer);
    if (user.failures !== 0) {
      user.failures = 0;
      this.hooks.userChanged(user.name);
    }
    return this.grant('b', customer, user.name);
  }

  private grant(kind: 'a' | 'b', customer: Customer, principal: string): AuthOutcome {
    customer.stats.authSuccesses += 1;
    return { ok: true, token: this.hooks.issue(kind, customer, principal), customer };
  }

  /** The account condition that now refuses a B token's calls: a lock or expired credentials. */
  userCondition(name: string): 'locked' | 'credentials-expired' | undefined {
    const user = this.users.get(name);
    if (user === undefined || user.locked) return 'locked';
    return user.credentialsExpired ? 'credentials-expired' : undefined;
  }

  hasUser(name: string): boolean {
    return this.users.has(name);
  }

  hasClient(consumerKey: string): boolean {
    return this.clients.has(consumerKey);
  }

  /** Support's unlock: clears the lock and the failure count, after any attempt in progress. */
  unlock(name: string): Promise<void> {
    return this.attempts.run(name, async () => {
      const user = this.users.get(name);
      if (user === undefined) return;
      user.locked = false;
      user.failures = 0;
      this.hooks.userChanged(name);
    });
  }

  userState(name: string): { locked: boolean; failures: number } | undefined {
    const user = this.users.get(name);
    return user === undefined ? undefined : { locked: user.locked, failures: user.failures };
  }

  /** Support's password change; applies at once, existing tokens stay valid. */
  async setPassword(name: string, password: string): Promise<void> {
    const hash = await this.checker.hash(password);
    await this.attempts.run(name, async () => {
      const user = this.users.get(name);
      if (user === undefined) return;
      user.passwordHash = hash;
      this.checker.forget(`b:${name}`);
      this.hooks.userChanged(name);
    });
  }

  /** What the state file keeps of a user; undefined for a name the config does not have. */
  persisted(name: string): PersistedUser | undefined {
    const u = this.users.get(name);
    if (u === undefined) return undefined;
    return { failures: u.failures, locked: u.locked, ...(u.passwordHash !== u.configHash ? { passwordHash: u.passwordHash } : {}) };
  }

  userNames(): IterableIterator<string> {
    return this.users.keys();
  }

  /** Applies a user's saved state over the config; names the config no longer has are ignored. */
  restore(name: string, saved: PersistedUser): void {
    const u = this.users.get(name);
    if (u === undefined) return;
    u.failures = saved.failures;
    u.locked = saved.locked;
    u.passwordHash = isSecretHash(saved.passwordHash) ? saved.passwordHash : u.configHash;
  }
}

function fail(reason: AuthFailure, customer?: Customer): AuthOutcome {
  if (customer !== undefined) customer.stats.authFailures += 1;
  return { ok: false, reason, customer };
}

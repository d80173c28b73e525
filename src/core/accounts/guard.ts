// The lockout guard: this client alone never makes the third failed sign-in of an Interface B account.
// Every attempt is counted before it is sent and settled after its answer (a lost answer counts: the
// service may have counted it). With two failures in a row, the next attempt needs the user's consent;
// credentials the service refused are not sent again by this client until they change.
import { createHash } from 'node:crypto';
import { LOCKOUT_AFTER_FAILURES } from '../constants';
import type { AttemptOutcome, GuardStore } from '../ports';
import { isLocalAccount, type Session } from './session';

export type GuardVerdict =
  | { readonly ok: true; readonly failures: number }
  | { readonly ok: false; readonly kind: 'guard' | 'auth'; readonly failures: number; readonly text: string; readonly advice: string };

export class LockoutGuard {
  /** Fingerprint of credentials the service refused, per account: not sent again unasked. */
  private readonly refused = new Map<string, string>();

  constructor(private readonly store: GuardStore) {}

  read(s: Session): Promise<number> {
    return this.store.read(s.key);
  }

  /** Why the account's count is not known (a damaged record, named), or undefined. */
  async doubt(s: Session): Promise<string | undefined> {
    return this.store.doubt?.(s.key);
  }

  /** Interface B locks on the third failure in a row, so after two the next attempt needs consent. */
  holds(s: Session, failures: number): boolean {
    return s.id === 'b' && failures >= LOCKOUT_AFTER_FAILURES - 1;
  }

  /** Counts an attempt about to be sent, or says why it may not be sent (then nothing is counted). */
  async begin(s: Session, confirmRisk: boolean): Promise<GuardVerdict> {
    if (!confirmRisk) {
      const failures = await this.store.read(s.key);
      if (this.holds(s, failures)) return held(failures, await this.doubt(s), isLocalAccount(s));
      if (this.refused.get(s.key) === fingerprint(s)) {
        return {
          ok: false,
          kind: 'auth',
          failures,
          text: 'Sign-in not attempted: the service already refused these exact credentials, and sending them again would count as another failed attempt.',
          advice: s.id === 'b' ? 'Correct the user name or password, then sign in again.' : 'Correct the consumer key or secret, then sign in again.',
        };
      }
    }
    // Counted before it is sent; another process may have counted one in the meantime.
    const failures = await this.store.begin(s.key);
    if (confirmRisk || !this.holds(s, failures)) return { ok: true, failures };
    await this.store.end(s.key, 'uncounted');
    return held(failures, await this.doubt(s), isLocalAccount(s));
  }

  /**
   * Settles the attempt counted by `begin`; returns the count after it. `credentialsRefused`: the
   * service said no to these credentials, so they are not sent again unasked (a lost answer is not that).
   */
  async end(s: Session, outcome: AttemptOutcome, failuresBefore: number, credentialsRefused = false): Promise<number> {
    await this.store.end(s.key, outcome);
    if (credentialsRefused) this.refused.set(s.key, fingerprint(s));
    if (outcome === 'accepted') {
      this.refused.delete(s.key);
      return 0;
    }
    return outcome === 'failed' ? failuresBefore + 1 : failuresBefore;
  }

  /** The advice after a refusal of the credentials, with the count so far. */
  refusalAdvice(s: Session, count: number): string {
    if (s.id !== 'b') return 'Check the consumer key and secret, then sign in again.';
    const ordinal = LOCKOUT_AFTER_FAILURES === 3 ? 'third' : `${LOCKOUT_AFTER_FAILURES}th`;
    return `Check the user name and password before trying again: ${count} failed sign-in${count === 1 ? '' : 's'} in a row so far, and the ${ordinal} locks the account until support unlocks it.`;
  }
}

/** How to clear the count of an account on a local sandbox, which is the user's own to clear. */
const LOCAL_ADVICE = [
  'This account is on a local sandbox. To clear the count, sign in once with its right user name and password (the demo ones: bizdata sandbox --help)',
  'and confirm the risk (command line: bizdata token --interface b --sandbox URL --confirm-risk): a successful sign-in resets it.',
  'If the sandbox has locked the account itself, restart the sandbox (or POST /_sandbox/users/USER/unlock) first.',
].join(' ');
const REMOTE_ADVICE = 'Check the user name and password first. Try again only if you are sure they are right, and confirm the risk when asked (command line: --confirm-risk).';

/** `local`: the account is on this machine (a local sandbox), whose count the user clears themselves. */
function held(failures: number, doubt: string | undefined, local: boolean): GuardVerdict {
  const locks = local ? 'one more failure makes the sandbox lock the account' : "one more failure locks the account until the service operator's support unlocks it";
  const text =
    doubt !== undefined
      ? `Sign-in not attempted: ${doubt}`
      : `Sign-in not attempted: ${failures} sign-ins in a row have failed for this account, and ${locks}.`;
  return { ok: false, kind: 'guard', failures, text, advice: local ? LOCAL_ADVICE : REMOTE_ADVICE };
}

function fingerprint(s: Session): string {
  return createHash('sha256').update(JSON.stringify(s.credentials)).digest('hex');
}

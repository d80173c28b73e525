// A connection's stored credentials bound to the sign-in address they were entered for: the client
// gets them only for that address, and the first call after the address changed asks the user
// before they go to the new one (consent.ts). Those an earlier version stored, with no address, are
// bound to the current one at their first use.
import type * as vscode from 'vscode';
import { signInOrigin } from '../../core/accounts/session';
import { failure } from '../../core/exchange/failures';
import type { CallResult, Credentials, Endpoints, InterfaceId } from '../../core/model';
import { confirmMovedAddress } from './consent';
import type { CredentialStore } from './stores';

export class BoundCredentials {
  /** The question being asked, per interface and pair of addresses: concurrent calls share one answer. */
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: CredentialStore,
    private readonly connection: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The credentials when they were entered for `endpoints`' sign-in address, else undefined. */
  async here(id: InterfaceId, endpoints: Endpoints): Promise<Credentials | undefined> {
    const stored = await this.store.get(this.connection, id);
    if (!stored) return undefined;
    const here = signInOrigin(endpoints, id);
    if (stored.origin === undefined) await this.store.set(this.connection, stored.credentials, here);
    else if (stored.origin !== here) return undefined;
    return stored.credentials;
  }

  /**
   * Undefined when the stored credentials may go to `endpoints`' sign-in address (entered for it, or
   * the user says so now, which binds them to it); otherwise the failure of a call that sent nothing.
   */
  async mayGo(id: InterfaceId, endpoints: Endpoints): Promise<CallResult | undefined> {
    const stored = await this.store.get(this.connection, id);
    const to = signInOrigin(endpoints, id);
    if (!stored || stored.origin === undefined || to === undefined || stored.origin === to) return undefined;
    const from = stored.origin;
    const key = `${id}|${from}|${to}`;
    let asked = this.asking.get(key);
    if (!asked) {
      asked = confirmMovedAddress({ connection: this.connection, id, from, to }).finally(() => this.asking.delete(key));
      this.asking.set(key, asked);
    }
    if (!(await asked)) {
      return failure(performance.now(), 'cancelled', `Nothing was sent: the credentials were entered for ${from}, not ${to}.`, 'Sign in again for the new address, or set the old address back.');
    }
    // Another caller sharing the answer may have bound them already.
    if ((await this.store.get(this.connection, id))?.origin !== to) {
      await this.store.set(this.connection, stored.credentials, to);
      this.log.info(`connection ${this.connection}: ${id}: the credentials entered for ${from} now go to ${to}, as confirmed`);
    }
    return undefined;
  }
}

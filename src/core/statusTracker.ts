// What the hosts show about each interface's token: its state, times, last error and calls made,
// with change events. Calls made are announced at most once per 250 ms: a batch at 50 QPS should not
// redraw a status bar 50 times a second.
import type { InterfaceId, TokenState, TokenStatus } from './model';
import type { TokenOwner } from './ports';

const CALL_NOTICE_MS = 250;

export interface Tracked {
  key?: string;
  /** The account's token owner, so a sign-out also drops the token of credentials replaced since. */
  owner?: TokenOwner;
  account?: string;
  state: TokenState;
  issuedAt?: number;
  expiresAt?: number;
  lastError?: { readonly code?: string; readonly text: string };
  callsMade: number;
  /** The lockout guard's count as last read; the status shows it without another read. */
  credentialFailures: number;
  /** Why that count is not known (its record was damaged), as last read. */
  guardDoubt?: string;
}

export type StatusListener = (s: TokenStatus) => void;

export class StatusTracker {
  private readonly tracked: Record<InterfaceId, Tracked> = {
    a: { state: 'none', callsMade: 0, credentialFailures: 0 },
    b: { state: 'none', callsMade: 0, credentialFailures: 0 },
  };
  private readonly listeners = new Set<StatusListener>();
  private readonly callNotices = new Map<InterfaceId, ReturnType<typeof setTimeout>>();

  get(id: InterfaceId): Readonly<Tracked> {
    return this.tracked[id];
  }

  /** Follows the account in use: a different account starts from a blank state. */
  useAccount(id: InterfaceId, owner: TokenOwner, account: string): void {
    const t = this.tracked[id];
    if (t.key === owner.key) return;
    Object.assign(t, { key: owner.key, owner, account, state: 'none', issuedAt: undefined, expiresAt: undefined, lastError: undefined, credentialFailures: 0, guardDoubt: undefined });
  }

  /** Applies a change; listeners hear of it when the state or the expiry changed. */
  set(id: InterfaceId, change: Partial<Tracked>): void {
    const t = this.tracked[id];
    const before = t.state;
    Object.assign(t, change);
    if (before !== t.state || change.expiresAt !== undefined) this.emit(id);
  }

  /** Changes what is shown without telling listeners (a status read, not an event). */
  assign(id: InterfaceId, change: Partial<Tracked>): void {
    Object.assign(this.tracked[id], change);
  }

  countCall(id: InterfaceId): void {
    this.tracked[id].callsMade++;
    if (this.listeners.size === 0 || this.callNotices.has(id)) return;
    const timer = setTimeout(() => {
      this.callNotices.delete(id);
      this.emit(id);
    }, CALL_NOTICE_MS);
    timer.unref?.();
    this.callNotices.set(id, timer);
  }

  status(id: InterfaceId): TokenStatus {
    const t = this.tracked[id];
    return {
      interfaceId: id,
      state: t.state,
      account: t.account,
      issuedAt: t.issuedAt,
      expiresAt: t.expiresAt,
      credentialFailures: t.key ? t.credentialFailures : 0,
      ...(t.key && t.guardDoubt !== undefined ? { guardDoubt: t.guardDoubt } : {}),
      callsMade: t.callsMade,
      lastError: t.lastError,
    };
  }

  emit(id: InterfaceId): void {
    if (this.listeners.size === 0) return;
    const s = this.status(id);
    for (const l of this.listeners) l(s);
  }

  onDidChange(listener: StatusListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    this.listeners.clear();
    for (const t of this.callNotices.values()) clearTimeout(t);
    this.callNotices.clear();
  }
}

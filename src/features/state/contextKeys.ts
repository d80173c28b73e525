// Every context key this extension sets, with its type: `when` clauses in package.json match these names.
import * as vscode from 'vscode';

export interface ContextKeyValues {
  /** Signed in to at least one interface (or the local sandbox is attached to this window). */
  'bizdata:signedIn': boolean;
  'bizdata:signedInA': boolean;
  'bizdata:signedInB': boolean;
  /** A local sandbox started from this window is running. */
  'bizdata:sandboxRunning': boolean;
  /** The Lookups view has at least one saved query or history entry. */
  'bizdata:hasLookups': boolean;
  /** A code's hover was shown once (completes the walkthrough's last step). */
  'bizdata:codeHovered': boolean;
}

export type ContextKey = keyof ContextKeyValues;

/** Sets a context key, skipping the round trip when the value did not change. */
export class ContextKeys {
  private readonly values = new Map<ContextKey, unknown>();

  set<K extends ContextKey>(key: K, value: ContextKeyValues[K]): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  get<K extends ContextKey>(key: K): ContextKeyValues[K] | undefined {
    return this.values.get(key) as ContextKeyValues[K] | undefined;
  }
}

// A connection's contract usage in the editor: read through its client, from the count the command
// line and every window share (core/contract), for the status bar and the Connections view; and the
// warnings at 80 % and 95 % of the period (and once used up), each shown once per connection, period
// and threshold on this machine, whichever window sees it first.
import * as vscode from 'vscode';
import { usageLevel, usageWarning, type ContractUsage } from '../../core/contract/usage';
import { errorMessage } from '../../core/errors';
import { safeLine } from '../../core/sanitize';
import type { Connection } from './connection';

const WARNED_KEY = 'bizdata.contract.warned';

/** The contract's usage this period; undefined when the connection states no contract, or the count cannot be read (logged). */
export async function contractUsageOf(connection: Connection, log: (line: string) => void): Promise<ContractUsage | undefined> {
  if (!connection.settings().contract) return undefined;
  try {
    return await connection.getClient().contractUsage();
  } catch (err) {
    log(`contract of ${connection.name}: the count cannot be read: ${errorMessage(err)}`);
    return undefined;
  }
}

/** Warns once per connection, period and threshold; remembered in globalState (the thresholds only, nothing secret). */
export class ContractWarnings {
  constructor(private readonly state: vscode.Memento) {}

  async note(u: ContractUsage): Promise<void> {
    const level = usageLevel(u);
    if (level === 0) return;
    const key = `${u.connection}|${u.periodStart}`;
    const warned = this.state.get<Record<string, number>>(WARNED_KEY) ?? {};
    if ((warned[key] ?? 0) >= level) return;
    // This connection's earlier periods are forgotten: each period warns again from the start.
    const kept = Object.fromEntries(Object.entries(warned).filter(([k]) => !k.startsWith(`${u.connection}|`)));
    await this.state.update(WARNED_KEY, { ...kept, [key]: level });
    void vscode.window.showWarningMessage(safeLine(`Business Data: ${usageWarning(u)}`));
  }
}

// The one status bar item: the active connection, the token state and remaining life of its active
// interface (a production connection in the warning colour), kept current by client status events
// and a one-minute timer. A click opens Switch Connection.
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { Services } from '../services';
import { Commands } from '../shared/commandIds';
import { statusAccessibilityLabel, statusBarText, statusTooltipMarkdown } from './statusText';
import { contractUsageOf, ContractWarnings } from '../connection/contractUsage';

export class TokenStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly timer: ReturnType<typeof setInterval>;
  private renderCount = 0;
  private latest: Promise<void> = Promise.resolve();
  private readonly warnings: ContractWarnings;

  constructor(private readonly services: Services) {
    this.warnings = new ContractWarnings(services.context.globalState);
    this.item = vscode.window.createStatusBarItem('bizdata.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Business Data Connection';
    this.item.command = Commands.switchConnection;
    this.item.text = '$(key) Business Data';
    this.item.accessibilityInformation = { label: 'Business Data token status. Activate for actions.', role: 'button' };
    this.item.show();
    this.disposables.push(this.item, services.connections.onDidChange(() => void this.update()), services.sandbox.onDidChange(() => void this.update()));
    this.timer = setInterval(() => void this.update(), 60_000);
    // First render in the background: it reads SecretStorage, which activation must not wait for.
    void this.update();
  }

  /** What the item shows now (read by the integration tests through the extension API). */
  get snapshot(): { readonly text: string; readonly tooltip: string; readonly accessibilityLabel: string; readonly warning: boolean } {
    const tooltip = this.item.tooltip;
    return {
      text: this.item.text,
      tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
      accessibilityLabel: this.item.accessibilityInformation?.label ?? '',
      warning: this.item.backgroundColor !== undefined,
    };
  }

  /**
   * Renders the current status. Resolves once the item shows a state read after the call: when a
   * newer update overtakes this one, this one waits for that one instead of rendering older data.
   */
  update(): Promise<void> {
    const rendering = this.render(++this.renderCount);
    this.latest = rendering;
    return rendering;
  }

  private async render(ticket: number): Promise<void> {
    const connection = this.services.connections.active;
    try {
      const id = await connection.activeInterface();
      const status = await connection.status(id);
      const signedIn = status.state !== 'signed-out';
      const limiter = signedIn ? connection.getClient().limiterState() : undefined;
      const usage = await contractUsageOf(connection, (line) => this.services.log.warn(line));
      if (ticket !== this.renderCount) return await this.latest; // a newer update renders newer data
      const now = Date.now();
      const place = { connection: connection.name, sandbox: connection.isSandbox, production: connection.production };
      this.item.text = statusBarText(status, now, place);
      this.item.accessibilityInformation = { label: statusAccessibilityLabel(status, now, place), role: 'button' };
      const tooltip = new vscode.MarkdownString(statusTooltipMarkdown(status, limiter, now, place, usage));
      this.item.tooltip = tooltip;
      if (usage) await this.warnings.note(usage);
      const problem = status.state === 'expired' || status.state === 'invalid' || status.state === 'locked' || status.state === 'failed';
      // A production account is in the warning colour all the time: every call there is real.
      this.item.backgroundColor = problem || connection.production ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    } catch (err) {
      this.services.log.warn(`status bar: ${errorMessage(err)}`);
    }
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

export function registerStatusBar(context: vscode.ExtensionContext, services: Services): TokenStatusBar {
  const bar = new TokenStatusBar(services);
  context.subscriptions.push(bar);
  return bar;
}

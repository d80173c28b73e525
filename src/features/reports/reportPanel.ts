// The run report in a webview: the same page as `--report FILE.html`, with VS Code's theme colours
// (the page reads --vscode-* variables), a CSP that allows only its own script and style by a nonce
// fresh for each page, no local or remote resources, no command links and no forms. One panel,
// reused; the report's code is loaded when the first report is opened, not at activation.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { runReportHtml } from '../../core/report/loadReport';
import type { KeptReport } from '../state/runReports';

export class ReportPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private html: string | undefined;

  /** The page the panel shows now (the integration tests read it back: VS Code does not let them into a webview). */
  get shownHtml(): string | undefined {
    return this.panel ? this.html : undefined;
  }

  async show(report: KeptReport): Promise<void> {
    const nonce = randomBytes(18).toString('base64url');
    const html = await runReportHtml(report.run, report.redact, { nonce, linkResults: false });
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('bizdata.report', report.run.title, vscode.ViewColumn.Active, {
        enableScripts: true,
        enableCommandUris: false,
        enableForms: false,
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.html = undefined;
      });
    }
    this.panel.title = `Report: ${report.run.title}`;
    this.html = html;
    this.panel.webview.html = html;
    this.panel.reveal();
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

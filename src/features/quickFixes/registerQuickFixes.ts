// Quick fixes on codes in results this extension produced: re-run with a new token, or after a pause.
// The re-run goes through `bizdata.rerunLookup`, so the client's lockout guard applies as everywhere.
import * as vscode from 'vscode';
import type { RerunLookupArgs } from '../../commands/rerunLookup';
import { DIAGNOSTIC_SOURCE } from '../diagnostics/documents';
import { RESULT_SCHEME } from '../results/resultUri';
import { rerunFixFor } from './rerunFixes';

export function provideRerunActions(document: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): vscode.CodeAction[] {
  const actions: vscode.CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof diagnostic.code !== 'string') continue;
    const fix = rerunFixFor(diagnostic.code);
    if (!fix) continue;
    const args: RerunLookupArgs = {
      resultUri: document.uri.toString(),
      ...(fix.forceNewToken ? { forceNewToken: true } : {}),
      ...(fix.pauseMs !== undefined ? { pauseMs: fix.pauseMs } : {}),
    };
    const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    action.diagnostics = [diagnostic];
    action.isPreferred = true;
    action.command = { command: 'bizdata.rerunLookup', title: fix.title, arguments: [args] };
    actions.push(action);
  }
  return actions;
}

export function registerQuickFixes(context: vscode.ExtensionContext): void {
  const provider: vscode.CodeActionProvider = {
    provideCodeActions: (document, _range, codeActionContext) => provideRerunActions(document, codeActionContext.diagnostics),
  };
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ scheme: RESULT_SCHEME }, provider, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
  );
}

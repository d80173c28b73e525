// Quick fixes on codes in results this extension produced: re-run with a new token, or after a pause.
// The re-run goes through `bizdata.rerunLookup`, so the client's lockout guard applies as everywhere.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../shared/codeDocuments';
import { commandOf, Commands } from '../shared/commandIds';
import { rerunArgs, rerunFixFor } from '../shared/rerunFixes';
import { RESULT_SCHEME } from '../state/resultUri';

export function provideRerunActions(document: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): vscode.CodeAction[] {
  const actions: vscode.CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof diagnostic.code !== 'string') continue;
    const fix = rerunFixFor(diagnostic.code);
    if (!fix) continue;
    const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    action.diagnostics = [diagnostic];
    action.isPreferred = true;
    action.command = commandOf(Commands.rerunLookup, fix.title, rerunArgs(document.uri.toString(), fix));
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

// The quick fix on a credential header written in a request file (Authorization, x-svc-user,
// x-svc-pwd): delete the line. The extension sends the signed-in account's token instead.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../shared/codeDocuments';

export function credentialHeaderFixes(document: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): vscode.CodeAction[] {
  return diagnostics
    // A diagnostic of an older version of the text may name a line the document no longer has.
    .filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code === 'credential-header' && d.range.start.line < document.lineCount)
    .map((d) => {
      const line = d.range.start.line;
      const name = document.lineAt(line).text.split(':')[0].trim();
      const action = new vscode.CodeAction(`Remove the ${name} header`, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [d];
      action.isPreferred = true;
      action.edit = new vscode.WorkspaceEdit();
      action.edit.delete(document.uri, document.lineAt(line).rangeIncludingLineBreak);
      return action;
    });
}

// Hovers on code values in result documents and JSON files; the text comes from the core's catalog.
import * as vscode from 'vscode';
import { CODE_DOCUMENTS } from '../shared/codeDocuments';
import { codeAt, mayHoldCodes } from '../shared/findCodes';
import type { CodeCatalog } from '../state/codeCatalog';
import type { ContextKeys } from '../state/contextKeys';
import { hoverMarkdown } from './hoverMarkdown';

export function registerHovers(context: vscode.ExtensionContext, deps: { readonly contextKeys: ContextKeys; readonly codes: CodeCatalog }): void {
  const provider: vscode.HoverProvider = {
    provideHover(document, position) {
      const text = document.getText();
      if (!mayHoldCodes(text)) return undefined;
      const finding = codeAt(text, document.offsetAt(position), deps.codes.current());
      if (!finding) return undefined;
      // The walkthrough's "Hover a code" step completes on this key.
      deps.contextKeys.set('bizdata:codeHovered', true);
      const range = new vscode.Range(document.positionAt(finding.offset), document.positionAt(finding.offset + finding.length));
      return new vscode.Hover(new vscode.MarkdownString(hoverMarkdown(finding)), range);
    },
  };
  context.subscriptions.push(vscode.languages.registerHoverProvider(CODE_DOCUMENTS, provider));
}

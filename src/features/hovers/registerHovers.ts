// Hovers on code values in result documents and JSON files; the text comes from the core's catalog.
import * as vscode from 'vscode';
import { CODE_DOCUMENTS, documentLength, INLINE_SCAN_CHARS } from '../shared/codeDocuments';
import { codeAt, mayHoldCodes, type CodeFinding } from '../shared/findCodes';
import type { CodeCatalog } from '../state/codeCatalog';
import type { ContextKeys } from '../state/contextKeys';
import type { FoundCodes } from '../state/foundCodes';
import { hoverMarkdown } from './hoverMarkdown';

export interface HoversDeps {
  readonly contextKeys: ContextKeys;
  readonly codes: CodeCatalog;
  /** The findings of large documents, from the diagnostics' scan on the worker. */
  readonly found: FoundCodes;
}

/** The code under the cursor: in a large document from the last scan, never by parsing it here. */
function findingAt(document: vscode.TextDocument, position: vscode.Position, deps: HoversDeps): CodeFinding | undefined {
  const offset = document.offsetAt(position);
  if (documentLength(document) > INLINE_SCAN_CHARS) return deps.found.at(document.uri.toString(), document.version, offset);
  const text = document.getText();
  return mayHoldCodes(text) ? codeAt(text, offset, deps.codes.current()) : undefined;
}

export function registerHovers(context: vscode.ExtensionContext, deps: HoversDeps): void {
  const provider: vscode.HoverProvider = {
    provideHover(document, position) {
      const finding = findingAt(document, position, deps);
      if (!finding) return undefined;
      // The walkthrough's "Hover a code" step completes on this key.
      deps.contextKeys.set('bizdata:codeHovered', true);
      const range = new vscode.Range(document.positionAt(finding.offset), document.positionAt(finding.offset + finding.length));
      return new vscode.Hover(new vscode.MarkdownString(hoverMarkdown(finding)), range);
    },
  };
  context.subscriptions.push(vscode.languages.registerHoverProvider(CODE_DOCUMENTS, provider));
}

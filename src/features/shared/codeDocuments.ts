// Which documents the code diagnostics, hovers and quick fixes look at, and how a large one is read.
import * as vscode from 'vscode';
import { RESULT_SCHEME } from '../state/resultUri';
import { SLICE_CHARS } from './codeScanner';

/** `source` of every diagnostic this extension reports; quick fixes only act on these. */
export const DIAGNOSTIC_SOURCE = 'Business Data';

/** Result documents, and any JSON file (a saved response, a log the user pasted). */
export const CODE_DOCUMENTS: vscode.DocumentSelector = [
  { scheme: RESULT_SCHEME },
  { language: 'json' },
  { language: 'jsonc' },
];

/** Documents longer than this are scanned on the worker (inline the finder takes ~15 ms a MB). */
export const INLINE_SCAN_CHARS = 512 * 1024;

/** The document's length in characters, without building its text. */
export function documentLength(document: vscode.TextDocument): number {
  return document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
}

/**
 * The document's text in slices, each read by range when it is needed: the whole text is never
 * built on the extension host's thread. Together the slices are exactly document.getText().
 */
export function* documentSlices(document: vscode.TextDocument): Generator<string> {
  const length = documentLength(document);
  for (let at = 0; at < length; at += SLICE_CHARS) {
    yield document.getText(new vscode.Range(document.positionAt(at), document.positionAt(Math.min(length, at + SLICE_CHARS))));
  }
}

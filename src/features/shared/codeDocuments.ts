// Which documents the code diagnostics, hovers and quick fixes look at.
import type * as vscode from 'vscode';
import { RESULT_SCHEME } from '../state/resultUri';

/** `source` of every diagnostic this extension reports; quick fixes only act on these. */
export const DIAGNOSTIC_SOURCE = 'Business Data';

/** Result documents, and any JSON file (a saved response, a log the user pasted). */
export const CODE_DOCUMENTS: vscode.DocumentSelector = [
  { scheme: RESULT_SCHEME },
  { language: 'json' },
  { language: 'jsonc' },
];

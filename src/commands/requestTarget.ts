// Turns the ways a request command is invoked ({ uri, line } from a CodeLens, { uri, name } from a
// keybinding or another extension, nothing from the palette) into the document and its request.
import * as vscode from 'vscode';
import type { ParsedRequest, ParsedRequestFile } from '../core/requests/requestFile';
import type { ParsedDocuments } from '../features/requestFiles/parsedDocuments';
import { findRequest } from '../features/requestFiles/requestChoice';
import { UserError } from '../features/shared/userError';
import { field, stringField } from './args';

export interface RequestTarget {
  readonly document: vscode.TextDocument;
  readonly file: ParsedRequestFile;
  readonly request: ParsedRequest;
}

export async function resolveRequestTarget(documents: ParsedDocuments, arg: unknown): Promise<RequestTarget> {
  const uri = stringField(arg, 'uri');
  const editor = vscode.window.activeTextEditor;
  const document = uri !== undefined ? await vscode.workspace.openTextDocument(vscode.Uri.parse(uri)) : editor?.document;
  if (!document) throw new UserError('Open a request file (*.bizdata.http) and put the cursor in a request first.');
  const file = documents.get(document);
  const name = stringField(arg, 'name');
  const givenLine = field(arg, 'line');
  const line = typeof givenLine === 'number' ? givenLine : editor?.document === document ? editor.selection.active.line : undefined;
  const request = findRequest(file, { name, line });
  if (request) return { document, file, request };
  const path = vscode.workspace.asRelativePath(document.uri);
  if (name !== undefined) throw new UserError(`No request named "${name}" in ${path}.`);
  // A file that is not text, or whose only request could not be read: what its diagnostic says.
  const problem = file.problems.find((p) => p.severity === 'error');
  if (file.requests.length === 0 && problem) throw new UserError(`${path}:${problem.span.line + 1}: ${problem.message}`);
  throw new UserError(
    file.requests.length === 0
      ? 'This file holds no request yet. Write one as "GET {{baseUrl}}/v1/…", or run "Business Data: New Request File" for examples.'
      : 'Put the cursor in a request (between its ### lines), or use the Send link above it.',
  );
}

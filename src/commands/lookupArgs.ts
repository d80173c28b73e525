// Turns the many ways a lookup command is invoked (tree element, { resultUri }, a URI, or the
// active result editor) into the lookup it refers to.
import * as vscode from 'vscode';
import type { LookupQuery } from '../core/model';
import type { LookupEntry } from '../features/explorer/lookupModel';
import type { Services } from '../features/services';
import { UserError } from './registerCommand';

export interface LookupTarget {
  readonly query: LookupQuery;
  /** The recorded lookup, when the target is a result (not a saved query). */
  readonly entry?: LookupEntry;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

export function resolveLookupTarget(services: Services, arg: unknown): LookupTarget {
  if (isRecord(arg) && arg.type === 'history' && isRecord(arg.entry) && typeof arg.entry.id === 'string') {
    const entry = services.lookups.find(arg.entry.id);
    if (!entry) throw new UserError('That lookup is no longer in the history.');
    return { query: entry.query, entry };
  }
  if (isRecord(arg) && arg.type === 'saved' && isRecord(arg.saved) && isRecord(arg.saved.query)) {
    return { query: arg.saved.query as unknown as LookupQuery };
  }
  let uri: vscode.Uri | undefined;
  if (arg instanceof vscode.Uri) uri = arg;
  else if (isRecord(arg) && typeof arg.resultUri === 'string') uri = vscode.Uri.parse(arg.resultUri);
  else if (arg === undefined) uri = vscode.window.activeTextEditor?.document.uri;
  if (!uri) throw new UserError('Open a lookup result or choose one in the Lookups view first.');
  const entry = services.results.find(uri);
  if (!entry) throw new UserError('This document is not a Business Data lookup result, or its lookup was deleted. Choose one in the Lookups view.');
  return { query: entry.query, entry };
}

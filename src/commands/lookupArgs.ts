// Turns the many ways a lookup command is invoked (Lookups view element, { resultUri }, a URI, or the
// active result editor) into the lookup it refers to.
import * as vscode from 'vscode';
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';
import type { HistoryQuery } from '../features/state/historyQueries';
import type { LookupEntry } from '../features/state/lookupEntries';
import { field, isRecord, lookupNodeId, stringField } from './args';

export interface LookupTarget {
  readonly query: HistoryQuery;
  /** The recorded lookup, when the target is a result (not a saved query). */
  readonly entry?: LookupEntry;
  /** The connection it went to (or a saved query goes to); undefined: the active one. */
  readonly connection?: string;
}

export function resolveLookupTarget(services: Services, arg: unknown): LookupTarget {
  const nodeId = lookupNodeId(arg);
  if (nodeId !== undefined && field(arg, 'type') === 'history') {
    const entry = services.lookups.find(nodeId);
    if (!entry) throw new UserError('That lookup is no longer in the history.');
    return { query: entry.query, entry, connection: entry.connection };
  }
  const savedQuery = field(field(arg, 'saved'), 'query');
  if (field(arg, 'type') === 'saved' && isRecord(savedQuery)) {
    // Saved queries are ours: the element comes from the Lookups view's own tree.
    return { query: savedQuery as unknown as HistoryQuery, connection: stringField(field(arg, 'saved'), 'connection') };
  }
  const resultUri = stringField(arg, 'resultUri');
  let uri: vscode.Uri | undefined;
  if (arg instanceof vscode.Uri) uri = arg;
  else if (resultUri !== undefined) uri = vscode.Uri.parse(resultUri);
  else if (arg === undefined) uri = vscode.window.activeTextEditor?.document.uri;
  if (!uri) throw new UserError('Open a lookup result or choose one in the Lookups view first.');
  const entry = services.results.find(uri);
  if (!entry) throw new UserError('This document is not a Business Data lookup result, or its lookup was deleted. Choose one in the Lookups view.');
  return { query: entry.query, entry, connection: entry.connection };
}

// Addresses of read-only result documents: bizdata-result:/<entry id>/<name>@<connection>.json, or
// .txt for a request's answer that is not JSON (so it opens in a plain editor).
import * as vscode from 'vscode';
import type { HistoryQuery } from './historyQueries';
import type { LookupEntry } from './lookupEntries';

export const RESULT_SCHEME = 'bizdata-result';

export function toResultUri(entry: Pick<LookupEntry, 'id' | 'query' | 'answer' | 'connection'>): vscode.Uri {
  return vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${entry.id}/${resultTitle(entry)}` });
}

/** The document's name, which its tab shows: the query, the connection it went to, the form. */
export function resultTitle(entry: Pick<LookupEntry, 'query' | 'answer' | 'connection'>): string {
  const at = entry.connection === undefined ? '' : `@${entry.connection.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64)}`;
  return `${resultBaseName(entry.query)}${at}${resultExtension(entry)}`;
}

/** `.txt` for an answer that is not JSON, else `.json`. */
export function resultExtension(entry: Pick<LookupEntry, 'answer'>): '.json' | '.txt' {
  return entry.answer?.form === 'text' ? '.txt' : '.json';
}

/** The lookup entry id behind a result URI, or undefined when the URI is not one of ours. */
export function fromResultUri(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== RESULT_SCHEME) return undefined;
  const match = /^\/([^/]+)\//.exec(uri.path);
  return match?.[1];
}

/** File-name-safe base name for a query: ip-203.0.113.7, org-GB-Acme-Ltd, request-orgSearch. */
export function resultBaseName(query: HistoryQuery): string {
  const raw =
    query.kind === 'ip'
      ? `ip-${query.ip}`
      : query.kind === 'org'
        ? `org-${query.country}-${query.name}`
        : `request-${query.name ?? `${query.request.method}-${URL.canParse(query.request.url) ? new URL(query.request.url).pathname : ''}`}`;
  return raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

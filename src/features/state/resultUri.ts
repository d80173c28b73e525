// Addresses of read-only result documents: bizdata-result:/<entry id>/<name>.json
import * as vscode from 'vscode';
import type { LookupQuery } from '../../core/model';

export const RESULT_SCHEME = 'bizdata-result';

export function toResultUri(entryId: string, query: LookupQuery): vscode.Uri {
  return vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${entryId}/${resultBaseName(query)}.json` });
}

/** The lookup entry id behind a result URI, or undefined when the URI is not one of ours. */
export function fromResultUri(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== RESULT_SCHEME) return undefined;
  const match = /^\/([^/]+)\//.exec(uri.path);
  return match?.[1];
}

/** File-name-safe base name for a query: ip-203.0.113.7, org-GB-Acme-Ltd. */
export function resultBaseName(query: LookupQuery): string {
  const raw = query.kind === 'ip' ? `ip-${query.ip}` : `org-${query.country}-${query.name}`;
  return raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

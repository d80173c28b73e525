// What the lookup history and the Saved group hold as a query: a lookup of one of the two samples or
// a request file's request; the check that a stored one can be shown, the key that says two are the
// same, and the labels the Lookups view and the result documents show for one.
import type { LookupQuery, OperationRequest } from '../../core/model';
import { lookupKey } from '../../core/requests/queries';
import { safeLine } from '../../core/sanitize';

/**
 * A request of a request file as it was sent: variables replaced, and never a token or a credential
 * (the client adds Authorization and Origin itself; the file's own such headers are dropped).
 */
export interface RequestQuery {
  readonly kind: 'request';
  readonly request: OperationRequest;
  /** The request's `@name` (or `###` title) in its file. */
  readonly name?: string;
}

/** What the history and the Saved group hold: a lookup of one of the two samples, or a request file's request. */
export type HistoryQuery = LookupQuery | RequestQuery;

/** A value that is an object (not null): its fields can be checked one by one. */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** A stored query, checked enough that rendering it cannot fail. */
export function isHistoryQuery(value: unknown): value is HistoryQuery {
  if (!isObject(value)) return false;
  if (value.kind === 'ip') return typeof value.ip === 'string';
  if (value.kind === 'org') return typeof value.country === 'string' && typeof value.name === 'string';
  return value.kind === 'request' && isObject(value.request) && typeof value.request.method === 'string' && typeof value.request.url === 'string';
}

/** One string per distinct query: the Saved group holds each once. */
export function queryKey(q: HistoryQuery): string {
  return q.kind === 'request' ? JSON.stringify(['request', q.name ?? '', q.request]) : lookupKey(q);
}

/** Short label for a query: "203.0.113.7", "Acme Ltd (GB)", or a request's name or "GET /v1/…". */
export function queryLabel(q: HistoryQuery): string {
  // Names come from files and other people's batches: shown without control or bidi characters.
  if (q.kind === 'request') return safeLine(q.name ?? `${q.request.method} ${pathOf(q.request.url)}`);
  return safeLine(q.kind === 'ip' ? q.ip : `${q.name} (${q.country}${q.territory ? `, ${q.territory}` : ''})`);
}

/** What kind of call a query is, in words: "IP address", "organization", "request". */
export function queryKindLabel(q: HistoryQuery): string {
  return q.kind === 'ip' ? 'IP address' : q.kind === 'org' ? 'organization' : 'request';
}

/** Path and query of a URL (the host is one of the service's, and long). */
export function pathOf(url: string): string {
  return URL.canParse(url) ? `${new URL(url).pathname}${new URL(url).search}` : url;
}

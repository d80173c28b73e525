// What completion in request files knows about the service: the two operations the specification
// shows (their paths and query parameters) and the request headers worth offering. Plain data.
import { DEFAULT_MATCH_TYPE, DEFAULT_VIEW } from '../../core/constants';
import type { InterfaceId } from '../../core/model';

export interface ParameterValue {
  readonly value: string;
  readonly description: string;
}

export interface QueryParameter {
  readonly name: string;
  readonly description: string;
  /** Values to offer; `countries`: the ISO 3166-1 alpha-2 list. */
  readonly values?: readonly ParameterValue[] | 'countries';
}

export interface KnownOperation {
  readonly title: string;
  readonly interfaceId: InterfaceId;
  /** The connection variable its URL starts with. */
  readonly host: 'baseUrl' | 'legacyUrl';
  /** The path after the host, as a request file writes it (variables for the version segments). */
  readonly path: string;
  /** The same path as a snippet with placeholders, plus the query to start from (may span lines). */
  readonly snippet: string;
  /** Recognises a URL of this operation whatever its host and version segment. */
  readonly matches: RegExp;
  readonly parameters: readonly QueryParameter[];
}

export const KNOWN_OPERATIONS: readonly KnownOperation[] = [
  {
    title: 'IP address lookup (Interface A)',
    interfaceId: 'a',
    host: 'baseUrl',
    path: '/{{aVersion}}/duns-search/ip/',
    snippet: '/{{aVersion}}/duns-search/ip/${1:203.0.113.7}?view=${2:standard}',
    matches: /\/duns-search\/ip\/[^/?#]*(?:[?#]|$)/,
    parameters: [{ name: 'view', description: 'The view of the record (spec 4.1).', values: [{ value: DEFAULT_VIEW, description: 'The standard view.' }] }],
  },
  {
    title: 'Organization search (Interface B)',
    interfaceId: 'b',
    host: 'legacyUrl',
    path: '/{{orgVersion}}/organizations',
    // One parameter a line (query continuation lines, as REST Client and httpYac read them).
    snippet: `/{{orgVersion}}/organizations\n    ?CountryISOAlpha2Code=\${1:GB}\n    &SubjectName=\${2:Acme%20Widgets%20Ltd}\n    &match=true\n    &MatchTypeText=\${3:${DEFAULT_MATCH_TYPE}}`,
    matches: /\/organizations(?:[?#]|$)/,
    parameters: [
      { name: 'CountryISOAlpha2Code', description: 'The country of the organization: an ISO 3166-1 alpha-2 code (required).', values: 'countries' },
      { name: 'SubjectName', description: 'The name to match, URL-encoded (required).' },
      { name: 'match', description: 'Ask for matching candidates.', values: [{ value: 'true', description: 'Return match candidates.' }] },
      { name: 'MatchTypeText', description: 'How to match the name.', values: [{ value: DEFAULT_MATCH_TYPE, description: 'The match type the specification shows.' }] },
      { name: 'TerritoryName', description: 'The territory (state, region) within the country (optional).' },
    ],
  },
];

export interface HeaderInfo {
  readonly name: string;
  readonly description: string;
  readonly values?: readonly string[];
}

/**
 * Request headers worth offering. Authorization, x-svc-user, x-svc-pwd and Origin are not among them:
 * the extension writes those from the signed-in account.
 */
export const REQUEST_HEADERS: readonly HeaderInfo[] = [
  { name: 'Accept', description: 'The media types the answer may have.', values: ['application/json', 'text/plain', '*/*'] },
  { name: 'Accept-Encoding', description: 'Compressions the answer may use.', values: ['gzip', 'identity'] },
  { name: 'Accept-Language', description: 'The languages the answer may be in.', values: ['en', 'en-US'] },
  { name: 'Cache-Control', description: 'Caching directives.', values: ['no-cache', 'no-store'] },
  { name: 'Content-Type', description: 'The media type of the request body.', values: ['application/json', 'application/x-www-form-urlencoded', 'text/plain'] },
  { name: 'If-Match', description: 'Send only when the resource still has this ETag.' },
  { name: 'If-None-Match', description: 'Answer 304 when the resource still has this ETag.' },
  { name: 'Prefer', description: 'Preferences for how the server answers.', values: ['return=minimal', 'return=representation'] },
  { name: 'User-Agent', description: 'Who is calling.' },
  { name: 'X-Request-ID', description: 'An id to find this request in the service logs.', values: ['{{$guid}}'] },
];

/** The known operation a URL (variables written or replaced) calls, if any. */
export function operationOf(url: string): KnownOperation | undefined {
  const path = url.replace(/^\s*(?:\{\{[^}]*\}\}|[a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i, '');
  return KNOWN_OPERATIONS.find((o) => o.matches.test(path));
}

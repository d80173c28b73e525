// The method tokens a request line may start with: every method REST Client (19) or httpYac (27,
// GRAPHQL among them) reads as one, but CONNECT (a tunnel) and the methods that reflect the request
// (TRACE, TRACK). Both send the token as written; httpYac turns GRAPHQL into POST.

/** REST Client's list (httpRequestParser.ts), matched case-insensitively there. */
const REST_CLIENT = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE', 'LOCK', 'UNLOCK', 'PROPFIND', 'PROPPATCH', 'COPY', 'MOVE', 'MKCOL', 'MKCALENDAR', 'ACL', 'SEARCH'] as const;
/** httpYac's further methods (requestHttpRegionParser.ts). */
const HTTPYAC_ONLY = ['CHECKOUT', 'CHECKIN', 'REPORT', 'MERGE', 'MKACTIVITY', 'MKWORKSPACE', 'VERSION-CONTROL', 'BASELINE-CONTROL', 'GRAPHQL'] as const;

/**
 * Methods that make a server send the request back as its answer (TRACE; TRACK is IIS's), with the
 * token the client adds: a request file may come from someone else, and its report is kept in CI.
 */
export const REFLECTING_METHODS: ReadonlySet<string> = new Set(['TRACE', 'TRACK']);

/** Methods a request line may name. CONNECT is left out: it opens a tunnel rather than asking the service anything; so are the reflecting ones. */
export const REQUEST_METHODS: ReadonlySet<string> = new Set<string>([...REST_CLIENT, ...HTTPYAC_ONLY].filter((m) => m !== 'CONNECT' && !REFLECTING_METHODS.has(m)));

/** Methods that go on the wire (GRAPHQL is sent as POST). */
export const WIRE_METHODS: ReadonlySet<string> = new Set([...REQUEST_METHODS].filter((m) => m !== 'GRAPHQL'));

/** The advice for a method token no peer reads. */
export function methodAdvice(token: string): string {
  if (REFLECTING_METHODS.has(token.toUpperCase())) {
    return `"${token}" asks the server to send the request back, the token the client adds with it, so a request file may not use it; use GET, POST, PUT, PATCH or DELETE.`;
  }
  if (token.toUpperCase() === 'CONNECT') return '"CONNECT" opens a tunnel through a proxy and is no request to the service; use GET, POST, PUT, PATCH or DELETE.';
  return `"${token.slice(0, 20)}" is not a method REST Client or httpYac sends; use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another of ${[...REQUEST_METHODS].slice(7).join(', ')}.`;
}

// Headers that say which host, address, scheme or path a request is for. A front end that routes by
// them (a CDN, an API gateway, a hosting platform) would take a request, and the token the client
// adds to it, to the virtual host a file names. The host a token goes to is the connection's, in the
// URL and on the wire: the client writes Host from the URL, and a request file may write none of these.

const IDENTITY_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'forwarded',
  'x-forwarded-host',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-server',
  'x-forwarded-scheme',
  'x-forwarded-uri',
  'x-real-ip',
  'x-original-host',
  'x-host',
  'x-original-url',
  'x-original-uri',
  'x-rewrite-url',
  'x-envoy-original-path',
  // They turn a POST into another method (TRACE among them) at a front end that honours them.
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
]);

/** Why a header of this name may not be written in a request (any case), or undefined when it may. */
export function identityHeaderProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (!IDENTITY_HEADERS.has(lower)) return undefined;
  const what = lower.includes('method') ? 'which method the request is' : 'which host, address or path the request is for';
  return `The ${name} header tells a server ${what}; it is set by the client from the connection's address and the request line, so that the token goes only to the connection's host. Delete this line.`;
}

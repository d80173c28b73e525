// Which addresses may be used: a service URL (https, or plain http to loopback only), a proxy URL,
// and how either is shown in a message (never the user:password before the host).

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a URL may not be used, or undefined when it may. Plain http is allowed only to loopback hosts
 * (the local sandbox): anywhere else it would send credentials and tokens in clear text.
 */
export function checkServiceUrl(label: string, value: string): string | undefined {
  const unschemed = withoutScheme(value);
  if (unschemed !== undefined) return unschemed(label);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${label} "${withoutUserInfo(value)}" is not a URL. Give a full address such as https://api.example.com.`;
  }
  if (url.username !== '' || url.password !== '') {
    // Never echoed: the part before @ is a user name and password.
    return `${label} contains a user name or password before the host (user:password@). Remove them: credentials are given separately, never in a service address.`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return undefined;
    return `${label} uses plain http:// to ${url.hostname}; credentials and tokens would travel unencrypted. Use https:// (plain http is allowed only for 127.0.0.1, ::1 and localhost).`;
  }
  return `${label} must start with https:// (or http:// for a local sandbox), not ${url.protocol}//.`;
}

/**
 * An address written without its scheme (`127.0.0.1:8080`, `localhost:8080`, `api.example.com`),
 * which URL parsers read as no URL or as a scheme named `localhost`: what to write instead.
 */
function withoutScheme(value: string): ((label: string) => string) | undefined {
  const v = value.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d+)?([/?#].*)?$/i.test(v)) return undefined;
  const hostname = v.startsWith('[') ? v.slice(0, v.indexOf(']') + 1) : v.replace(/[:/?#].*$/, '');
  const scheme = LOOPBACK_HOSTS.has(hostname) ? 'http' : 'https';
  const why = scheme === 'http' ? ' (plain http:// only for a local sandbox on 127.0.0.1, ::1 or localhost; https:// for a service)' : '';
  return (label) => `${label} "${withoutUserInfo(v)}" has no scheme: write ${scheme}://${withoutUserInfo(v)}${why}.`;
}

/** Whether an origin (scheme://host:port) is on this machine: where a local sandbox listens. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Why a proxy URL cannot be used, or undefined. A user:password@ part is allowed (proxy sign-in) but never echoed. */
export function checkProxyUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `The proxy URL must start with http:// or https://, not ${u.protocol}//.`;
    return undefined;
  } catch {
    return `The proxy URL "${withoutUserInfo(value)}" is not a URL; give it as http://host:port.`;
  }
}

/** A URL-like text with anything between "//" and "@" hidden, for messages. */
export function withoutUserInfo(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1<redacted>@');
}

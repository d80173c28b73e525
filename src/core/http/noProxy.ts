// Which service hosts skip the proxy (VS Code's http.noProxy, the NO_PROXY convention), pure.

/**
 * True when `origin`'s host matches an entry: `*` (every host), or a name with an optional `:port`;
 * as curl reads NO_PROXY, a name (also written `.domain` or `*.domain`) covers its subdomains.
 * Case-insensitive; IPv6 literals in brackets.
 */
export function bypassesProxy(origin: string, entries: readonly string[]): boolean {
  let host: string;
  let port: string;
  try {
    const u = new URL(origin);
    host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    port = u.port || (u.protocol === 'https:' ? '443' : '80');
  } catch {
    return false;
  }
  return entries.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') return true;
    const m = /^\*?\.?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!m) return false;
    const [, name, entryPort] = m;
    if (entryPort !== undefined && entryPort !== port) return false;
    const bare = name.replace(/^\[|\]$/g, '');
    return host === bare || host.endsWith(`.${bare}`);
  });
}

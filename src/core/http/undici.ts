// The parts of undici the client uses. undici's index also loads fetch, WebSocket, the cache and the
// mocks (about 600 KB once bundled); the agents and request() alone keep the extension bundle small.
// These are undici's own modules, unchanged; the version is pinned to a minor line in package.json.
import Agent from 'undici/lib/dispatcher/agent';
import Pool from 'undici/lib/dispatcher/pool';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent';
import connectOn from 'undici/lib/api/api-connect';
import requestOn from 'undici/lib/api/api-request';
import type { Dispatcher } from 'undici';

export { Agent };
export type { Dispatcher };

/** undici's request(), on a given dispatcher (what `dispatcher.request()` does once undici's index has loaded). */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestOn.call(dispatcher, options);
}

/**
 * A ProxyAgent that works without undici's index: the agent opens its CONNECT tunnels with
 * `client.connect()`, a method the index adds to every dispatcher's prototype. Here the proxy's own
 * pool gets it as an own property instead, so nothing global changes. `proxyTunnel: false` sends
 * plain http (the loopback sandbox) as absolute-URI requests; https targets still go through CONNECT.
 */
export function proxyAgent(options: ProxyAgent.Options): Dispatcher {
  return new ProxyAgent({
    proxyTunnel: false,
    ...options,
    clientFactory: (origin, opts) => {
      const pool = new Pool(origin, opts);
      pool.connect = ((o: Dispatcher.ConnectOptions) => connectOn.call(pool, o)) as Dispatcher['connect'];
      return pool;
    },
  });
}

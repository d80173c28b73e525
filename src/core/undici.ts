// The parts of undici the client uses. undici's index also loads fetch, WebSocket, the cache and the
// mocks (about 600 KB once bundled); the agents and request() alone keep the extension bundle small.
// These are undici's own modules, unchanged; the version is pinned to a minor line in package.json.
import Agent from 'undici/lib/dispatcher/agent';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent';
import requestOn from 'undici/lib/api/api-request';
import type { Dispatcher } from 'undici';

export { Agent, ProxyAgent };
export type { Dispatcher };

/** undici's request(), on a given dispatcher (what `dispatcher.request()` does once undici's index has loaded). */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestOn.call(dispatcher, options);
}

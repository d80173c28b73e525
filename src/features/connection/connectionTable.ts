// The user's connections as this window uses them: each one's client settings, read from the user
// setting `bizdata.connections` (checked by the core's parser, never here) and, as the connection
// `default`, from today's `bizdata.endpoints.*` settings until they are removed. Plain TypeScript
// (unit-tested in plain Node): the VS Code side (connections.ts) hands it the setting's values.
import { DEFAULT_CONNECTION, type Connection as ConnectionDefinition } from '../../core/connections/connection';
import { readConnectionSettings, type ConnectionSettings, type SettingsReader } from './settings';

/** One connection of the window: its name and what its client is built from. */
export interface NamedConnection {
  readonly name: string;
  readonly settings: ConnectionSettings;
  readonly production: boolean;
  /** `setting`: from bizdata.connections; `endpoints`: today's bizdata.endpoints.* settings, as `default`. */
  readonly from: 'setting' | 'endpoints';
}

export interface ConnectionTable {
  /** In the order the setting writes them; `default` from the old settings last. */
  readonly connections: readonly NamedConnection[];
  /** The setting's `active`, when it names one of them. */
  readonly active?: string;
}

/** The addresses of today's single settings, set or not: while any is, they are the connection `default`. */
export function hasEndpointSettings(config: SettingsReader): boolean {
  return ['authUrl', 'baseUrl', 'legacyUrl'].some((k) => {
    const v = config.get<string>(`bizdata.endpoints.${k}`);
    return typeof v === 'string' && v.trim() !== '';
  });
}

/**
 * The window's connections: the checked definitions of `bizdata.connections`, then `default` from
 * `bizdata.endpoints.*` when the setting defines no `default` and either the old addresses are set or
 * the setting defines nothing (then `default` is where the "set an address" message points).
 */
export function connectionTable(config: SettingsReader, definitions: readonly ConnectionDefinition[], active: string | undefined): ConnectionTable {
  const connections: NamedConnection[] = definitions.map((d) => ({ name: d.name, settings: settingsOf(d, config), production: d.production, from: 'setting' }));
  const definesDefault = definitions.some((d) => d.name === DEFAULT_CONNECTION);
  if (!definesDefault && (definitions.length === 0 || hasEndpointSettings(config))) {
    connections.push({ name: DEFAULT_CONNECTION, settings: readConnectionSettings(config), production: false, from: 'endpoints' });
  }
  return { connections, active: active !== undefined && connections.some((c) => c.name === active) ? active : undefined };
}

/**
 * A connection's client settings: its own addresses, caps, coordinator, proxy, CA file and contract; what it
 * leaves out of these last four comes from the window's settings (bizdata.limits.*, bizdata.network.*,
 * bizdata.coordination.redisUrl, VS Code's http.proxy), as do the timeouts and the answer size limit.
 */
export function settingsOf(d: ConnectionDefinition, config: SettingsReader): ConnectionSettings {
  const window = readConnectionSettings(config);
  const http = d.proxy !== undefined ? { ...window.http, proxyUrl: d.proxy, noProxy: undefined, proxyStrictSSL: undefined } : window.http;
  return {
    endpoints: d.endpoints,
    limits: { qps: d.qps ?? window.limits.qps, concurrency: d.concurrency ?? window.limits.concurrency },
    redisUrl: d.coordinator ?? window.redisUrl,
    http: { ...http, caFile: d.caFile ?? http.caFile },
    ...(d.contract ? { contract: d.contract } : {}),
  };
}

/** The connections `before` had from the setting that the setting's new definitions no longer name. */
export function deletedConnections(before: ConnectionTable, now: readonly ConnectionDefinition[]): NamedConnection[] {
  return before.connections.filter((c) => c.from === 'setting' && !now.some((d) => d.name === c.name));
}

/** A connection as lists show it. */
export interface ConnectionInfo {
  readonly name: string;
  readonly production: boolean;
  readonly sandbox: boolean;
  /** The three addresses, as set (empty when not). */
  readonly endpoints: { readonly authUrl: string; readonly baseUrl: string; readonly legacyUrl: string };
}

export function connectionInfo(name: string, e: ConnectionInfo['endpoints'], production: boolean, sandbox: boolean): ConnectionInfo {
  return { name, production, sandbox, endpoints: { authUrl: e.authUrl, baseUrl: e.baseUrl, legacyUrl: e.legacyUrl } };
}

// A named connection: one service's addresses, Origin, version segments, limit caps and optional
// coordinator, proxy and CA file (schemas/connections.schema.json). Never a secret: credentials stay
// in SecretStorage or the environment, and everything kept for an account (tokens, guard counts,
// learned limits) stays keyed by the account, so two connections to one account share them.
import { AUTH_VERSION_B, ORG_VERSION_B, VERSION_A } from '../constants';
import type { Endpoints } from '../model';
import { exactOrigin } from '../protocol/credentialOrigins';

/** The local sandbox is always a connection of its own, under this name; no file may define it. */
export const SANDBOX_CONNECTION = 'sandbox';
/** What today's single `bizdata.endpoints.*` settings become (migrateEndpointSettings). */
export const DEFAULT_CONNECTION = 'default';
export const RESERVED_CONNECTION_NAMES: readonly string[] = [SANDBOX_CONNECTION];
/** What a connection's name may be: it goes into status bars, history entries and file names. */
export const CONNECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The one spelling of a connection's name in environment variable names (BIZDATA_<KEY>_USER …):
 * upper case, every other character as "_". Two names with one key would share credentials, so a
 * connections file may not hold both ("eu-prod" and "EU_prod" are one name).
 */
export function connectionKey(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** Today's defaults, for the fields a connection leaves out (package.json's bizdata.endpoints.* defaults). */
export const CONNECTION_DEFAULTS = { authUrl: '', baseUrl: '', legacyUrl: '', origin: 'https://localhost', authVersion: AUTH_VERSION_B, orgVersion: ORG_VERSION_B, aVersion: VERSION_A } as const;

export interface Connection {
  readonly name: string;
  /** Every field set: what the file leaves out has its default (aVersion included). */
  readonly endpoints: Endpoints & { readonly aVersion: string };
  /** Caps on requests per second and in flight; undefined: `auto` (the adaptive limiter finds them). */
  readonly qps?: number;
  readonly concurrency?: number;
  /** redis:// or rediss:// address of a coordinator (its password never here). */
  readonly coordinator?: string;
  /** http(s)://host:port of an HTTP proxy. */
  readonly proxy?: string;
  /** A PEM file of an extra certificate authority. */
  readonly caFile?: string;
  /** A production account: a batch asks for confirmation, the status bar warns. */
  readonly production: boolean;
  /** True only for the local sandbox (SANDBOX_CONNECTION), whose demo credentials need no sign-in. */
  readonly sandbox: boolean;
}

/** Today's `bizdata.endpoints.*` keys, each optional. */
export interface EndpointFields {
  readonly authUrl?: string;
  readonly baseUrl?: string;
  readonly legacyUrl?: string;
  readonly origin?: string;
  readonly aVersion?: string;
  readonly authVersion?: string;
  readonly orgVersion?: string;
}

/** One connection as the file and the setting write it (every field optional; schemas/connections.schema.json). */
export interface ConnectionFields extends EndpointFields {
  readonly qps?: number | 'auto';
  readonly concurrency?: number | 'auto';
  readonly coordinator?: string;
  readonly proxy?: string;
  readonly caFile?: string;
  readonly production?: boolean;
}

/** The whole document: the file's content, the setting's value. */
export interface ConnectionsDocument {
  readonly active?: string;
  readonly connections: Readonly<Record<string, ConnectionFields>>;
}

/** Connections as read and checked (connectionsFile.ts): the user's ones, in the order written, and the sandbox's name reserved. */
export interface Connections {
  /** The name `active` gives, already checked to name a connection (or `sandbox`). */
  readonly active?: string;
  readonly list: readonly Connection[];
  /** Where they were read from (a file path, or a setting's name), for messages. */
  readonly source: string;
}

/** Thrown when a name names no connection; the message lists the names there are. */
export class UnknownConnectionError extends Error {}

/** A connection from its checked fields, with today's defaults for what is left out. Addresses lose a trailing slash. */
export function connectionFromFields(name: string, f: ConnectionFields): Connection {
  const text = (v: string | undefined, fallback: string): string => (v !== undefined && v.trim() !== '' ? v.trim() : fallback);
  const address = (v: string | undefined): string => text(v, '').replace(/\/+$/, '');
  const cap = (v: number | 'auto' | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
  return {
    name,
    endpoints: {
      authUrl: address(f.authUrl),
      baseUrl: address(f.baseUrl),
      legacyUrl: address(f.legacyUrl),
      origin: text(f.origin, CONNECTION_DEFAULTS.origin),
      authVersion: text(f.authVersion, CONNECTION_DEFAULTS.authVersion),
      orgVersion: text(f.orgVersion, CONNECTION_DEFAULTS.orgVersion),
      aVersion: text(f.aVersion, CONNECTION_DEFAULTS.aVersion),
    },
    ...(cap(f.qps) !== undefined ? { qps: cap(f.qps) } : {}),
    ...(cap(f.concurrency) !== undefined ? { concurrency: cap(f.concurrency) } : {}),
    ...(f.coordinator !== undefined ? { coordinator: f.coordinator.trim() } : {}),
    ...(f.proxy !== undefined ? { proxy: f.proxy.trim() } : {}),
    ...(f.caFile !== undefined ? { caFile: f.caFile } : {}),
    production: f.production === true,
    sandbox: false,
  };
}

/** The local sandbox at `url` (http://127.0.0.1:PORT): all three hosts there, its own origin as Origin. */
export function sandboxConnection(url: string): Connection {
  const base = url.trim().replace(/\/+$/, '');
  const c = connectionFromFields(SANDBOX_CONNECTION, { authUrl: base, baseUrl: base, legacyUrl: base, origin: exactOrigin(base) ?? base });
  return { ...c, sandbox: true };
}

/** Every name a user may choose: theirs, then the sandbox. */
export function connectionNames(connections: Connections | undefined): string[] {
  return [...(connections?.list.map((c) => c.name) ?? []), SANDBOX_CONNECTION];
}

/**
 * The connection of that name; `sandbox` is the local sandbox at `sandboxUrl` (when the caller knows
 * one). Throws UnknownConnectionError listing the names there are.
 */
export function findConnection(connections: Connections | undefined, name: string, sandboxUrl?: string): Connection {
  if (name === SANDBOX_CONNECTION) {
    if (sandboxUrl !== undefined) return sandboxConnection(sandboxUrl);
    throw new UnknownConnectionError(`The connection "${SANDBOX_CONNECTION}" is the local sandbox, and no sandbox address is known here; start it and give its address.`);
  }
  const found = connections?.list.find((c) => c.name === name);
  if (found) return found;
  const where = connections ? ` in ${connections.source}` : '';
  throw new UnknownConnectionError(`No connection is named "${shownName(name)}"${where}. The connections are: ${connectionNames(connections).join(', ')}.`);
}

/** The connection variables a request file gets (`{{baseUrl}}` …), as request files name them. */
export function connectionVariables(e: Endpoints): Record<string, string> {
  return { baseUrl: e.baseUrl, authUrl: e.authUrl, legacyUrl: e.legacyUrl, origin: e.origin, aVersion: e.aVersion ?? VERSION_A, authVersion: e.authVersion, orgVersion: e.orgVersion };
}

/** The distinct hosts (scheme://host[:port]) a connection's three addresses name, for lists: A's token and data hosts, B's host. */
export function connectionHosts(c: { readonly endpoints: Endpoints }): string[] {
  const e = c.endpoints;
  return [...new Set([e.authUrl, e.baseUrl, e.legacyUrl].map(exactOrigin).filter((o): o is string => o !== undefined))];
}

/** Today's single settings (`bizdata.endpoints.*` and friends), as the extension reads them. */
export interface EndpointSettings extends EndpointFields {
  /** bizdata.limits.*: 0 or unset is auto. */
  readonly qps?: number;
  readonly concurrency?: number;
  /** bizdata.coordination.redisUrl, bizdata.network.proxy, bizdata.network.caFile. */
  readonly coordinator?: string;
  readonly proxy?: string;
  readonly caFile?: string;
}

/**
 * Today's single settings as a connections document with one connection, `default`, active; only
 * the fields that differ from the defaults are written. Undefined when no address is set (nothing
 * to migrate). Pure: the extension writes the result to `bizdata.connections`.
 */
export function migrateEndpointSettings(old: EndpointSettings): ConnectionsDocument | undefined {
  const set = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);
  if (set(old.authUrl) === undefined && set(old.baseUrl) === undefined && set(old.legacyUrl) === undefined) return undefined;
  const fields: Record<string, string | number> = {};
  const keys = ['authUrl', 'baseUrl', 'legacyUrl', 'origin', 'aVersion', 'authVersion', 'orgVersion'] as const;
  for (const k of keys) {
    const v = set(old[k]);
    if (v !== undefined && v !== CONNECTION_DEFAULTS[k]) fields[k] = k.endsWith('Url') ? v.replace(/\/+$/, '') : v;
  }
  if (old.qps !== undefined && Number.isFinite(old.qps) && old.qps > 0) fields.qps = old.qps;
  if (old.concurrency !== undefined && Number.isFinite(old.concurrency) && old.concurrency >= 1) fields.concurrency = Math.floor(old.concurrency);
  for (const k of ['coordinator', 'proxy', 'caFile'] as const) {
    const v = set(old[k]);
    if (v !== undefined) fields[k] = v;
  }
  return { active: DEFAULT_CONNECTION, connections: { [DEFAULT_CONNECTION]: fields as ConnectionFields } };
}

/** A name as messages show it: printable, at most 64 characters. */
export function shownName(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '?').slice(0, 64);
}

// Reads the `bizdata.*` settings into plain client options. Never holds a credential.
import type { Contract } from '../../core/contract/contract';
import { AUTH_VERSION_B, ORG_VERSION_B, VERSION_A } from '../../core/constants';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../core/http/http';
import type { Endpoints } from '../../core/model';

/** The subset of vscode.WorkspaceConfiguration this module needs (keeps it testable). */
export interface SettingsReader {
  get<T>(section: string): T | undefined;
}

export interface ConnectionSettings {
  readonly endpoints: Endpoints;
  /** The contract the connection states (bizdata.connections): its data calls counted, shown and checked before a run. */
  readonly contract?: Contract;
  /** Caps the adaptive limiter never exceeds; Infinity when the setting is 0 (auto). */
  readonly limits: { readonly qps: number; readonly concurrency: number };
  /** `redis://HOST:PORT` or `rediss://…` when this window shares tokens, guard counts and the budget through Redis. */
  readonly redisUrl?: string;
  readonly http: {
    readonly connectTimeoutMs: number;
    readonly bodyTimeoutMs: number;
    readonly requestTimeoutMs: number;
    /** bizdata.network.maxResponseMB: a larger answer is discarded with a message. */
    readonly maxBodyBytes: number;
    /** A request file's answer larger than this is parsed on the code scanner's worker, not in the extension host. */
    readonly maxParseBytes: number;
    readonly proxyUrl?: string;
    readonly caFile?: string;
    /** From VS Code's http.noProxy, when its http.proxy is the one in use. */
    readonly noProxy?: readonly string[];
    /** From VS Code's http.proxyStrictSSL: the certificate of an https:// proxy itself (the service's is always checked). */
    readonly proxyStrictSSL?: boolean;
  };
}

const MB = 1024 * 1024;
/** Above this, an answer is parsed off the extension host's thread (JSON.parse takes ~10 ms a MB). */
export const PARSE_IN_HOST_BYTES = 2 * MB;
/** VS Code hands no document longer than this (in characters) to extensions: no diagnostics, hovers or reads. */
export const EXTENSION_DOCUMENT_LIMIT_CHARS = 50 * MB;

/** Sections whose change means the client must be rebuilt (VS Code's own proxy settings among them). */
export const CLIENT_SECTIONS = ['bizdata.endpoints', 'bizdata.limits', 'bizdata.timeouts', 'bizdata.network', 'bizdata.coordination', 'http.proxy', 'http.proxyStrictSSL', 'http.noProxy'] as const;

export function readConnectionSettings(config: SettingsReader): ConnectionSettings {
  const text = (key: string, fallback: string): string => {
    const v = config.get<string>(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback;
  };
  const positive = (key: string, fallback: number): number => {
    const v = config.get<number>(key);
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
  };
  const optional = (key: string): string | undefined => {
    const v = config.get<string>(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  return {
    endpoints: {
      authUrl: stripSlash(text('bizdata.endpoints.authUrl', '')),
      baseUrl: stripSlash(text('bizdata.endpoints.baseUrl', '')),
      legacyUrl: stripSlash(text('bizdata.endpoints.legacyUrl', '')),
      origin: text('bizdata.endpoints.origin', 'https://localhost'),
      authVersion: text('bizdata.endpoints.authVersion', AUTH_VERSION_B),
      orgVersion: text('bizdata.endpoints.orgVersion', ORG_VERSION_B),
      aVersion: text('bizdata.endpoints.aVersion', VERSION_A),
    },
    limits: { qps: positive('bizdata.limits.qps', Infinity), concurrency: Math.floor(positive('bizdata.limits.concurrency', Infinity)) },
    redisUrl: optional('bizdata.coordination.redisUrl'),
    http: {
      connectTimeoutMs: positive('bizdata.timeouts.connectMs', 10_000),
      bodyTimeoutMs: positive('bizdata.timeouts.responseMs', 30_000),
      requestTimeoutMs: positive('bizdata.timeouts.requestMs', DEFAULT_REQUEST_TIMEOUT_MS),
      maxBodyBytes: Math.round(positive('bizdata.network.maxResponseMB', 100) * MB),
      maxParseBytes: PARSE_IN_HOST_BYTES,
      caFile: optional('bizdata.network.caFile'),
      ...proxySettings(config, optional('bizdata.network.proxy')),
    },
  };
}

/** bizdata.network.proxy when set; otherwise VS Code's own http.proxy with its http.noProxy and http.proxyStrictSSL. */
function proxySettings(config: SettingsReader, own: string | undefined): Pick<ConnectionSettings['http'], 'proxyUrl' | 'noProxy' | 'proxyStrictSSL'> {
  if (own !== undefined) return { proxyUrl: own };
  const editor = config.get<string>('http.proxy');
  if (typeof editor !== 'string' || editor.trim() === '') return {};
  const noProxy = config.get<unknown>('http.noProxy');
  return {
    proxyUrl: editor.trim(),
    noProxy: Array.isArray(noProxy) ? noProxy.filter((h): h is string => typeof h === 'string' && h.trim() !== '') : undefined,
    proxyStrictSSL: config.get<boolean>('http.proxyStrictSSL') !== false,
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

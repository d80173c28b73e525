// A connection's client and what it shares (window sharing: the state folder or Redis), built from the
// connection's settings in one go; connection.ts decides when (made, signed in, settings changed).
// Network settings the client cannot use become one message saying which setting to fix.
import * as vscode from 'vscode';
import { accountKey, contractScope } from '../../core/accounts/session';
import { ContractMeter } from '../../core/contract/meter';
import { BizDataClient } from '../../core/client';
import { errorMessage } from '../../core/errors';
import type { Credentials, InterfaceId, WireEvent } from '../../core/model';
import { redact } from '../../core/redact';
import { UserError } from '../shared/userError';
import type { CodeCatalog } from '../state/codeCatalog';
import type { NamedConnection } from './connectionTable';
import { openWindowSharing, type WindowSharing } from './sharing';

/** What the clients of a window share: the extension's storage, its log, the code catalog. */
export interface ClientDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly codes: CodeCatalog;
  /** Warnings already shown by this window: a client rebuilt on a settings change does not repeat them. */
  readonly warned: Set<string>;
}

export interface ClientInputs {
  readonly name: string;
  readonly definition: NamedConnection;
  readonly sandbox: boolean;
  readonly deps: ClientDeps;
  /** The credentials the client may send for the current sign-in address. */
  readonly credentials: (id: InterfaceId) => Promise<Credentials | undefined>;
  /** The credentials of the interface in use: the budget and learned limits are its account's. */
  readonly activeCredentials: () => Promise<Credentials | undefined>;
  readonly observe: (event: WireEvent) => void;
}

export interface ClientParts {
  readonly client: BizDataClient;
  readonly sharing: WindowSharing;
}

export function buildClient(o: ClientInputs): ClientParts {
  const { settings } = o.definition;
  const { deps } = o;
  const log = (line: string): void => deps.log.info(line);
  const account = async (): Promise<string | undefined> => {
    const c = await o.activeCredentials();
    return c ? accountKey(settings.endpoints, c) : undefined;
  };
  const warn = (text: string): void => {
    if (deps.warned.has(text)) return;
    deps.warned.add(text);
    deps.log.warn(text);
    void vscode.window.showWarningMessage(text);
  };
  const sharing = openWindowSharing({ context: deps.context, settings, sandbox: o.sandbox, account, log, warn });
  const { contract } = settings;
  // The contract's count, shared with the command line and every window through the state folder (or Redis).
  const scope = contractScope(o.name, settings.endpoints);
  const meter = contract && new ContractMeter({ scope, connection: o.name, contract, store: sharing.usage });
  try {
    const client = new BizDataClient({
      endpoints: settings.endpoints,
      credentials: o.credentials,
      tokenStore: sharing.tokenStore,
      guardStore: sharing.guardStore,
      locks: sharing.locks,
      limiter: sharing.limiter,
      http: settings.http,
      codes: deps.codes.current(),
      log,
      observe: o.observe,
      contract: meter,
    });
    return { client, sharing };
  } catch (err) {
    sharing.dispose();
    // The client refuses only an unreadable CA file or a malformed proxy URL: settings to fix, not a
    // bug. A proxy URL may carry a password, so it never reaches the message (or the log).
    const reason = redact(errorMessage(err), [settings.http.proxyUrl]);
    const where = o.definition.from === 'setting' ? `the connection "${o.name}" in bizdata.connections (caFile, proxy) or ` : '';
    throw new UserError(`The network settings of the connection "${o.name}" cannot be used: ${reason} Check ${where}bizdata.network.caFile and bizdata.network.proxy.`);
  }
}

// The editor as a host of the run engine (core/run/engine.ts), for Send, the Test Explorer and Run
// with Data: the window's connections, each request's way out through its connection (one readiness
// offer, then the caller's send: Send shows progress and opens the answer, the Test Explorer keeps
// it for its test), the inputs asked at each request's turn (`# @prompt` boxes, the `.env`, body
// files, a data row; a data run asks once, at its first row) and `# @note` asked as a modal question,
// the one redaction of every connection's secrets, and cancellation. It decides nothing of the run: what is sent, judged, chained and what
// stops the run is the engine's.
import type * as vscode from 'vscode';
import type { CallResult, OperationRequest } from '../../core/model';
import { connectionOfRequest } from '../../core/requests/requestConnections';
import type { ParsedRequest, ParsedRequestFile } from '../../core/requests/requestFile';
import type { RunEvent, RunHost } from '../../core/run/engine';
import type { FileInputs } from '../../core/run/prepare';
import type { RowSignals } from '../../core/run/rows';
import type { Route } from '../../core/run/step';
import type { Connection, ReadyCall } from '../connection/connection';
import type { Connections } from '../connection/connections';
import { notReadyFailure } from '../connection/readiness';
import { offerToGetReady } from '../connection/readinessOffer';
import { requestInputs } from './requestInputs';
import { confirmNote } from './requestSettingsUi';

/** How a host sends a prepared request through a connection (its client, lockout prompt and history). */
/**
 * Sends a request through its connection, once the connection was found ready: `call` does not ask
 * again. `rows`: a rows runner's signals, to send with (its stop drops the call while it waits).
 */
export type EditorSend = (connection: Connection, request: OperationRequest, r: ParsedRequest, call: ReadyCall, rows?: RowSignals) => Promise<CallResult>;

export interface EditorRunOptions {
  readonly connections: Connections;
  /** The request file, for its inputs (`.env`, body files) and each request's connection. */
  readonly uri: vscode.Uri;
  readonly file: ParsedRequestFile;
  readonly send: EditorSend;
  /** A data row's values (Run with Data), by column. */
  readonly row?: ReadonlyMap<string, string>;
  /**
   * Answers kept across the hosts of one data run, by request: its prompts and its `# @note` are asked
   * at the first row, not at every row (askedOnce() makes one).
   */
  readonly asked?: AskedOnce;
  /** Aborted: the request on the wire is cut and no other is sent. */
  readonly signal?: AbortSignal;
  on?(event: RunEvent): void | Promise<void>;
}

/** What the user answered for each request of a data run, asked at its first row. */
export interface AskedOnce {
  readonly inputs: Map<number, Promise<FileInputs | undefined>>;
  readonly notes: Map<number, Promise<boolean>>;
}

export function askedOnce(): AskedOnce {
  return { inputs: new Map(), notes: new Map() };
}

/** The answer kept for the request, or asked now and kept. */
function once<T>(kept: Map<number, Promise<T>> | undefined, r: ParsedRequest, ask: () => Promise<T>): Promise<T> {
  if (!kept) return ask();
  const known = kept.get(r.index);
  if (known) return known;
  const asking = ask();
  kept.set(r.index, asking);
  return asking;
}

/** The label a request goes by in the editor's questions. */
export function requestLabel(r: ParsedRequest): string {
  return r.name ?? `the request at line ${r.requestLine + 1}`;
}

export function editorRunHost(o: EditorRunOptions): RunHost {
  const { connections, uri, file } = o;
  const choice = connections.choice();
  const route = (name: string): Route | undefined => {
    const connection = connections.named(name);
    if (!connection) return undefined;
    return {
      name,
      endpoints: connection.settings().endpoints,
      send: async (request, r, rows) => {
        // Not signed in, or no address: one offer, and the run stops (stops.ts: the connection's setup).
        const ready = await connection.whenReady(request.interfaceId);
        if (!ready.ok) {
          void offerToGetReady(ready.notReady);
          return notReadyFailure(ready.notReady);
        }
        return o.send(connection, request, r, ready.call, rows);
      },
    };
  };
  return {
    connections: choice,
    route,
    inputs: async (r): Promise<FileInputs | undefined> => {
      const inputs = await once(o.asked?.inputs, r, () => requestInputs(uri, r, requestLabel(r)));
      if (!inputs) return undefined;
      // A secret-looking prompt's answer is hidden from the log and the history like a credential.
      const picked = connectionOfRequest(file, r, choice);
      const client = picked.ok ? connections.named(picked.name)?.getClient() : undefined;
      for (const p of r.settings.prompts) if (p.secret) client?.addSecret(inputs.prompts?.get(p.name) ?? '');
      return o.row ? { ...inputs, row: o.row } : inputs;
    },
    confirm: (r, note) => once(o.asked?.notes, r, () => confirmNote(note, requestLabel(r))),
    redact: (text) => connections.redact(text),
    stopped: () => o.signal?.aborted === true,
    on: o.on,
  };
}

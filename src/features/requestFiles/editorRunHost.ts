// The editor as a host of the run engine (core/run/engine.ts), for Send, the Test Explorer and Run
// with Data: the window's connections, each request's way out through its connection (one readiness
// offer, then the caller's send: Send shows progress and opens the answer, the Test Explorer keeps
// it for its test), what the run's edges were answered before anything was sent (editorEdges.ts: the
// prompts, the notes confirmed, the run's one set of secrets), a data row's values, and cancellation.
// It decides nothing of the run: what is sent, judged, chained and what stops the run is the engine's.
import type * as vscode from 'vscode';
import type { CallResult, OperationRequest } from '../../core/model';
import type { ParsedRequest } from '../../core/requests/requestFile';
import type { RunEvent, RunHost } from '../../core/run/engine';
import type { Route } from '../../core/run/step';
import type { Connection, ReadyCall } from '../connection/connection';
import type { Connections } from '../connection/connections';
import { notReadyFailure } from '../connection/readiness';
import { offerToGetReady } from '../connection/readinessOffer';
import type { EditorEdges } from './editorEdges';

/** Sends a request through its connection, once the connection was found ready: `call` does not ask again. */
export type EditorSend = (connection: Connection, request: OperationRequest, r: ParsedRequest, call: ReadyCall) => Promise<CallResult>;

export interface EditorRunOptions {
  readonly connections: Connections;
  /** The run's edges, passed (editorEdges.ts). */
  readonly edges: EditorEdges;
  /** The request file whose requests this host runs. */
  readonly uri: vscode.Uri;
  readonly send: EditorSend;
  /** Aborted: the request on the wire is cut and no other is sent. */
  readonly signal?: AbortSignal;
  on?(event: RunEvent): void | Promise<void>;
}

export function editorRunHost(o: EditorRunOptions): RunHost {
  const { connections, edges } = o;
  const file = edges.fileOf(o.uri);
  const inputs = { ...file.inputs, prompts: edges.answers.prompts.get(file.path) ?? new Map<string, string>() };
  const route = (name: string): Route | undefined => {
    const connection = connections.named(name);
    if (!connection) return undefined;
    return {
      name,
      endpoints: connection.settings().endpoints,
      send: async (request, r) => {
        // Not signed in, or no address: one offer, and the run stops (stops.ts: the connection's setup).
        const ready = await connection.whenReady(request.interfaceId);
        if (!ready.ok) {
          void offerToGetReady(ready.notReady);
          return notReadyFailure(ready.notReady);
        }
        return o.send(connection, request, r, ready.call);
      },
    };
  };
  return {
    connections: connections.choice(),
    route,
    inputs: () => Promise.resolve(inputs),
    confirm: (r) => Promise.resolve(edges.answers.confirmed.has(r)),
    secrets: edges.secrets,
    stopped: () => o.signal?.aborted === true,
    on: o.on,
  };
}

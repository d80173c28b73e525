// The command line as a host of the run engine (core/run/engine.ts): the run's clients, one per
// connection (requestClients.ts), the answers given before the run (runEdges.ts: the prompts, the
// notes confirmed), the run's one registry of secrets, and Ctrl-C. It decides nothing of the run.
import type { RunSecrets } from '../core/redact';
import type { RunAnswers } from '../core/run/asking';
import type { RunEvent, RunHost } from '../core/run/engine';
import type { PreflightFile } from '../core/run/preflight';
import type { RowSignals } from '../core/run/rows';
import type { Route } from '../core/run/step';
import type { RequestClients } from './requestClients';
import type { StopRequests } from './signals';
import type { CallCeiling } from '../core/contract/ceiling';

export interface CliHostOptions {
  readonly clients: RequestClients;
  readonly file: PreflightFile;
  readonly answers: RunAnswers;
  readonly secrets: RunSecrets;
  readonly values: { readonly 'confirm-risk'?: boolean };
  readonly stop: StopRequests;
  /** The run's ceiling of data calls (--max-calls). */
  readonly ceiling?: CallCeiling;
  on?(event: RunEvent): void | Promise<void>;
}

export function cliRunHost(o: CliHostOptions): RunHost {
  const { clients, values, stop, file, answers } = o;
  const inputs = { ...file.inputs, prompts: answers.prompts.get(file.path) ?? new Map<string, string>() };
  const routes = new Map<string, Route | undefined>();
  // A rows runner's signals (one pair a run) joined once to Ctrl-C's: AbortSignal.any costs more than a call.
  let joined: { readonly rows: RowSignals; readonly signal: AbortSignal; readonly stop: AbortSignal } | undefined;
  const signals = (rows: RowSignals | undefined): { readonly signal: AbortSignal; readonly stop: AbortSignal } => {
    if (rows === undefined) return { signal: stop.cut, stop: stop.stop };
    if (joined?.rows !== rows) {
      joined = { rows, signal: AbortSignal.any([stop.cut, rows.signal]), stop: rows.stop === undefined || rows.stop === stop.stop ? stop.stop : AbortSignal.any([stop.stop, rows.stop]) };
    }
    return joined;
  };
  const route = (name: string): Route | undefined => {
    if (routes.has(name)) return routes.get(name);
    const setup = clients.setupNamed(name);
    const made: Route | undefined = setup && {
      name,
      endpoints: setup.endpoints,
      send: (request, _r, rows) => setup.client.send(request, { confirmRisk: values['confirm-risk'] === true, ...signals(rows), ceiling: o.ceiling }),
    };
    routes.set(name, made);
    return made;
  };
  return {
    connections: clients.choice,
    route,
    inputs: () => Promise.resolve(inputs),
    confirm: (r) => Promise.resolve(answers.confirmed.has(r)),
    secrets: o.secrets,
    stopped: () => stop.received !== undefined,
    on: o.on,
  };
}

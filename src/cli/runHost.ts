// The command line as a host of the run engine (core/run/engine.ts): the run's clients, one per
// connection (requestClients.ts), the answers given before the run (prompts, --var), `# @note`
// asked at a terminal or passed by --confirm-notes, and Ctrl-C. It decides nothing of the run.
import type { RunEvent, RunHost } from '../core/run/engine';
import type { FileInputs } from '../core/run/prepare';
import type { RowSignals } from '../core/run/rows';
import type { Route } from '../core/run/step';
import { confirmNote, type InputValues } from './requestInputs';
import type { CliIo } from './io';
import type { RequestClients } from './requestClients';
import type { StopRequests } from './signals';
import { requestName } from '../core/run/judge';

export interface CliHostOptions {
  readonly clients: RequestClients;
  /** The file as named, for the note's question. */
  readonly file: string;
  readonly inputs: FileInputs;
  readonly values: InputValues & { readonly 'confirm-risk'?: boolean };
  readonly io: CliIo;
  readonly stop: StopRequests;
  on?(event: RunEvent): void | Promise<void>;
}

export function cliRunHost(o: CliHostOptions): RunHost {
  const { clients, values, io, stop } = o;
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
      send: (request, _r, rows) => setup.client.send(request, { confirmRisk: values['confirm-risk'] === true, ...signals(rows) }),
    };
    routes.set(name, made);
    return made;
  };
  return {
    connections: clients.choice,
    route,
    inputs: () => Promise.resolve(o.inputs),
    confirm: (r) => confirmNote(r, `${o.file}: ${requestName(r)}`, values, io),
    redact: (text) => clients.redact(text),
    stopped: () => stop.received !== undefined,
    on: o.on,
  };
}

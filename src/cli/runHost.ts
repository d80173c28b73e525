// The command line as a host of the run engine (core/run/engine.ts): the run's clients, one per
// connection (requestClients.ts), the answers given before the run (prompts, --var), `# @note`
// asked at a terminal or passed by --confirm-notes, and Ctrl-C. It decides nothing of the run.
import type { RunEvent, RunHost } from '../core/run/engine';
import type { FileInputs } from '../core/run/prepare';
import type { Route } from '../core/run/step';
import { confirmNote, type InputValues } from './requestInputs';
import type { CliIo } from './io';
import type { RequestClients } from './requestClients';
import type { StopRequests } from './signals';
import { requestName } from '../core/run/judge';
import type { CallCeiling } from '../core/contract/ceiling';

export interface CliHostOptions {
  readonly clients: RequestClients;
  /** The file as named, for the note's question. */
  readonly file: string;
  readonly inputs: FileInputs;
  readonly values: InputValues & { readonly 'confirm-risk'?: boolean };
  readonly io: CliIo;
  readonly stop: StopRequests;
  /** The run's ceiling of data calls (--max-calls). */
  readonly ceiling?: CallCeiling;
  on?(event: RunEvent): void | Promise<void>;
}

export function cliRunHost(o: CliHostOptions): RunHost {
  const { clients, values, io, stop } = o;
  const routes = new Map<string, Route | undefined>();
  const route = (name: string): Route | undefined => {
    if (routes.has(name)) return routes.get(name);
    const setup = clients.setupNamed(name);
    const made: Route | undefined = setup && {
      name,
      endpoints: setup.endpoints,
      send: (request) => setup.client.send(request, { confirmRisk: values['confirm-risk'] === true, stop: stop.stop, signal: stop.cut, ceiling: o.ceiling }),
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

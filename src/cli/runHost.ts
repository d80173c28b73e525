// The command line as a host of the run engine (core/run/engine.ts): the run's clients, one per
// connection (requestClients.ts), the answers given before the run (runEdges.ts: the prompts, the
// notes confirmed), the run's one registry of secrets, and Ctrl-C. It decides nothing of the run.
import type { RunSecrets } from '../core/redact';
import type { RunAnswers } from '../core/run/asking';
import type { RunEvent, RunHost } from '../core/run/engine';
import type { PreflightFile } from '../core/run/preflight';
import type { Route } from '../core/run/step';
import type { RequestClients } from './requestClients';
import type { StopRequests } from './signals';

export interface CliHostOptions {
  readonly clients: RequestClients;
  readonly file: PreflightFile;
  readonly answers: RunAnswers;
  readonly secrets: RunSecrets;
  readonly values: { readonly 'confirm-risk'?: boolean };
  readonly stop: StopRequests;
  on?(event: RunEvent): void | Promise<void>;
}

export function cliRunHost(o: CliHostOptions): RunHost {
  const { clients, values, stop, file, answers } = o;
  const inputs = { ...file.inputs, prompts: answers.prompts.get(file.path) ?? new Map<string, string>() };
  const routes = new Map<string, Route | undefined>();
  const route = (name: string): Route | undefined => {
    if (routes.has(name)) return routes.get(name);
    const setup = clients.setupNamed(name);
    const made: Route | undefined = setup && {
      name,
      endpoints: setup.endpoints,
      send: (request) => setup.client.send(request, { confirmRisk: values['confirm-risk'] === true, stop: stop.stop, signal: stop.cut }),
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

// The one engine that runs request-file requests, whatever starts them: `bizdata send` and `bizdata
// test`, a data-driven run (a template once per row), the editor's Send and the Test Explorer. For
// each request, in file order: its connection picked (requestConnections.ts), `# @disabled`,
// `# @note` and `# @prompt` honoured through the host, prepared once (prepare.ts), sent through the
// connection's client (its token, limiter, guard and retries: the host's `route`), judged by one judge
// (judge.ts), its answer kept for chaining by one rule (chain.ts), and the run ended by one table
// (stops.ts). Everything it reports is redacted here, at its edge. Hosts only ask, show and write.
import type { CallFailure, OperationRequest } from '../model';
import type { RunSecrets } from '../redact';
import { connectionOfRequest, type ConnectionChoice } from '../requests/requestConnections';
import type { ParsedRequest, ParsedRequestFile } from '../requests/requestFile';
import type { ChainedResponse } from '../requests/requestVariables';
import { chainedAnswer } from './chain';
import { judgeStep, judgeUnsendable, type RequestOutcome } from './judge';
import { prepare, type FileInputs } from './prepare';
import type { Route, RunStep, Unsendable } from './step';

export type SkipReason = 'disabled' | 'declined' | 'stopped' | 'cancelled';

/** What the engine tells its host, in order, for each request. */
export type RunEvent =
  | { readonly kind: 'skipped'; readonly request: ParsedRequest; readonly why: SkipReason }
  | { readonly kind: 'started'; readonly request: ParsedRequest; readonly route: Route; readonly sent: OperationRequest }
  /** The client's result, before it is judged: a host keeps it (history, a report) or prints it. */
  | { readonly kind: 'answered'; readonly step: RunStep }
  /** The request's verdict; `step` is absent when it could not be sent. */
  | { readonly kind: 'judged'; readonly outcome: RequestOutcome; readonly step?: RunStep }
  /** The run ends here: the failure of stops.ts, or (`until: 'first-failure'`) this outcome. */
  | { readonly kind: 'stopped'; readonly request: ParsedRequest; readonly failure?: CallFailure; readonly route?: Route };

export interface RunHost {
  /** The connections a request may go to; requestConnections.ts picks one per request. */
  readonly connections: ConnectionChoice;
  /** The way out through a connection by name; undefined when it cannot be used now. */
  route(name: string): Route | undefined;
  /** What the request may read besides its file (prompt answers asked now or before); undefined: the user declined. */
  inputs(r: ParsedRequest): Promise<FileInputs | undefined>;
  /** `# @note`: asked before the request is sent; false skips it. */
  confirm(r: ParsedRequest, note: string): Promise<boolean>;
  /**
   * The run's one set of secrets (core/redact.ts): verdicts and messages hold none it knows, and a
   * chained value that holds one is never sent (chain.ts).
   */
  readonly secrets: RunSecrets;
  /** True ends the run before the next request (Ctrl-C, a cancelled test run). */
  stopped?(): boolean;
  /** Told of each event in order, and awaited. */
  on?(event: RunEvent): void | Promise<void>;
}

export interface RunPlan {
  readonly file: ParsedRequestFile;
  /** The requests to run, in file order; `# @disabled` ones are reported skipped. */
  readonly requests: readonly ParsedRequest[];
  /** Answers of named requests from before the run (the editor's Send chains on its document's). */
  readonly responses?: ReadonlyMap<string, ChainedResponse>;
  /**
   * `end`: every request runs, each judged (`bizdata test`, the Test Explorer, a data row).
   * `first-failure`: the run is a script, and ends at the first request that does not pass (`bizdata send`).
   */
  readonly until: 'end' | 'first-failure';
}

export interface RunSummary {
  readonly outcomes: readonly RequestOutcome[];
  /** The failure (stops.ts) or the outcome (`first-failure`) that ended the run early. */
  readonly stopped?: { readonly request: ParsedRequest; readonly failure?: CallFailure; readonly route?: Route };
  /** The answers named requests left for later ones, redacted (chain.ts). */
  readonly responses: ReadonlyMap<string, ChainedResponse>;
}

/** Runs the plan's requests one after another; see the file's first comment. */
export async function runRequests(plan: RunPlan, host: RunHost): Promise<RunSummary> {
  const responses = new Map(plan.responses ?? []);
  const outcomes: RequestOutcome[] = [];
  const tell = async (e: RunEvent): Promise<void> => void (await host.on?.(e));
  let stopped: RunSummary['stopped'];
  for (const r of plan.requests) {
    if (stopped || host.stopped?.()) {
      await tell({ kind: 'skipped', request: r, why: 'stopped' });
      continue;
    }
    const turn = await runOne(plan.file, r, responses, host, tell);
    if (turn.skipped) {
      if (turn.cancelled) stopped = { request: r };
      continue;
    }
    outcomes.push(turn.outcome);
    if (turn.failure || (plan.until === 'first-failure' && turn.outcome.verdict !== 'passed')) {
      stopped = { request: r, failure: turn.failure, route: turn.step?.route };
      await tell({ kind: 'stopped', ...stopped });
    }
  }
  return { outcomes, responses, ...(stopped ? { stopped } : {}) };
}

type Turn =
  /** `cancelled`: the call was cut short (a cancelled run, Ctrl-C): no result to judge, and the run ends. */
  | { readonly skipped: true; readonly cancelled?: boolean }
  | { readonly skipped?: false; readonly outcome: RequestOutcome; readonly step?: RunStep; readonly failure?: CallFailure };

async function runOne(file: ParsedRequestFile, r: ParsedRequest, responses: Map<string, ChainedResponse>, host: RunHost, tell: (e: RunEvent) => Promise<void>): Promise<Turn> {
  const skip = async (why: SkipReason): Promise<Turn> => (await tell({ kind: 'skipped', request: r, why }), { skipped: true, cancelled: why === 'cancelled' });
  const unsendable = async (u: Omit<Unsendable, 'request'>): Promise<Turn> => {
    const outcome = judgeUnsendable({ request: r, ...u }, (t) => host.secrets.redact(t));
    await tell({ kind: 'judged', outcome });
    return { outcome };
  };
  if (r.settings.disabled) return skip('disabled');
  const picked = connectionOfRequest(file, r, host.connections);
  const route = picked.ok ? host.route(picked.name) : undefined;
  if (!picked.ok) return unsendable({ line: picked.line, message: picked.message, reason: 'connection' });
  if (!route) return unsendable({ line: r.requestLine, message: `The connection "${picked.name}" cannot be used now.`, reason: 'connection' });
  if (r.settings.note !== undefined && !(await host.confirm(r, r.settings.note))) return skip('declined');
  const inputs = await host.inputs(r);
  if (!inputs) return skip('declined');
  const prepared = await prepare(file, r, route.endpoints, responses, { ...inputs, holdsSecret: (v) => host.secrets.holds(v) });
  if (!prepared.ok) return unsendable(prepared);
  await tell({ kind: 'started', request: r, route, sent: prepared.request });
  const result = await route.send(prepared.request, r);
  const step: RunStep = { request: r, sent: prepared.request, result, route };
  await tell({ kind: 'answered', step });
  // A call cut short by a cancelled run or Ctrl-C is no result to judge.
  if (!result.ok && result.kind === 'cancelled') return skip('cancelled');
  const chained = r.name !== undefined ? chainedAnswer(result) : undefined;
  if (r.name !== undefined && chained) responses.set(r.name, chained);
  const { outcome, stop } = judgeStep(step, (t) => host.secrets.redact(t));
  await tell({ kind: 'judged', outcome, step });
  return { outcome, step, failure: stop };
}

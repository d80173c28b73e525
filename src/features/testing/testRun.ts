// One run of the Test Explorer: each chosen file's requests in file order (with the named requests they
// chain on), each sent as the editor's Send sends it (prepareRequest, then sendForAnswer under the
// connection's lockout guard), kept in the history so its answer opens from the result, and judged.
// Cancelling aborts the request on the wire and skips the rest; a refusal by the lockout guard is an
// error that ends the run, never a failed assertion.
import * as vscode from 'vscode';
import type { CallResult } from '../../core/model';
import { answerOf, evaluateAssertions, requestPassed, type AssertionOutcome } from '../../core/requests/assertions';
import type { ParsedRequest } from '../../core/requests/requestFile';
import type { ChainedResponse } from '../../core/requests/requestVariables';
import { safeLine, safeText } from '../../core/sanitize';
import { confirmProductionRun } from '../connection/consent';
import { offerToGetReady } from '../connection/readinessOffer';
import { connectionOfRequest } from '../../core/requests/requestConnections';
import { prepareToSend } from '../requestFiles/prepareToSend';
import { requestInputs } from '../requestFiles/requestInputs';
import { confirmNote } from '../requestFiles/requestSettingsUi';
import { keepInHistory, sendForAnswer } from '../results/lookUpAndShow';
import type { Services } from '../services';
import { Commands } from '../shared/commandIds';
import { chainedFrom } from '../state/chainedResponses';
import { toResultUri } from '../state/resultUri';
import type { TestAnswers } from '../state/testAnswers';
import { answerLine, diffOf, runOrder, verdictOf } from './requestTests';
import type { ReadFile, RequestTestTree } from './testTree';
import { RunRecording } from './testRunReport';
import type { ReportVerdict } from '../../core/report/reportModel';

export type RunServices = Pick<Services, 'connections' | 'scanner' | 'lookups' | 'responses' | 'reports'> & { readonly testAnswers: TestAnswers };

/** Stops the whole run: the lockout guard refused, the user cancelled, or no interface is ready. */
class StopRun extends Error {}

export class TestRunner {
  constructor(
    private readonly controller: vscode.TestController,
    private readonly tree: RequestTestTree,
    private readonly services: RunServices,
  ) {}

  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const recording = new RunRecording();
    try {
      const planned: Array<{ readonly file: ReadFile; readonly order: readonly ParsedRequest[] }> = [];
      for (const [uri, indexes] of await this.chosen(request)) {
        const file = await this.tree.read(vscode.Uri.parse(uri));
        const order = runOrder(file.text, file.parsed, indexes === 'all' ? new Set(file.parsed.requests.map((r) => r.index)) : indexes);
        planned.push({ file, order });
        for (const r of order) {
          const item = file.requests.get(r.index);
          if (item) for (const queued of [item, ...assertionItems(item, r)]) run.enqueued(queued);
        }
      }
      // One question for the run when it reaches a production connection; declined, nothing is sent.
      let stopped = !(await this.productionConfirmed(planned));
      for (const { file, order } of planned) {
        const responses = new Map<string, ChainedResponse>();
        for (const r of order) {
          const item = file.requests.get(r.index);
          if (!item) continue;
          if (stopped || abort.signal.aborted) {
            for (const skipped of [item, ...assertionItems(item, r)]) run.skipped(skipped);
            continue;
          }
          try {
            await this.runRequest(run, file, r, item, responses, abort.signal, recording);
          } catch (err) {
            if (!(err instanceof StopRun)) throw err;
            stopped = true;
          }
        }
      }
    } finally {
      cancelled.dispose();
      this.services.reports.keep(recording.report());
      recording.dispose();
      // The testing API has no link in a run's output; the command is in each test's context menu too.
      run.appendOutput('The report of this run: "Business Data: Open Report" (Command Palette, or a test\'s context menu).\r\n');
      run.end();
    }
  }

  /** True unless the run's requests reach a production connection and the user declines (in a trusted workspace: elsewhere nothing is sent anyway). */
  private async productionConfirmed(planned: ReadonlyArray<{ readonly file: ReadFile; readonly order: readonly ParsedRequest[] }>): Promise<boolean> {
    if (!vscode.workspace.isTrusted) return true;
    const choice = this.services.connections.choice();
    const reached = planned.flatMap(({ file, order }) =>
      order.flatMap((r) => {
        const c = r.settings.disabled ? undefined : connectionOfRequest(file.parsed, r, choice);
        const connection = c?.ok ? this.services.connections.named(c.name) : undefined;
        return connection ? [connection] : [];
      }),
    );
    return confirmProductionRun(reached, 'Run these tests');
  }

  /** File URI → the request indexes chosen in it ('all' for a whole file), honouring `exclude`. */
  private async chosen(request: vscode.TestRunRequest): Promise<Map<string, Set<number> | 'all'>> {
    if (!request.include) await this.tree.discover();
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const out = new Map<string, Set<number> | 'all'>();
    const items: vscode.TestItem[] = [];
    if (request.include) items.push(...request.include);
    else this.controller.items.forEach((i) => items.push(i));
    for (const item of items) {
      if (excluded.has(item.id)) continue;
      const node = this.tree.node(item);
      if (!node) continue;
      const key = node.uri.toString();
      if (node.kind === 'file') {
        // Excluded requests of a file leave the rest of it.
        const file = await this.tree.read(node.uri);
        const kept = [...file.requests].filter(([, child]) => !excluded.has(child.id)).map(([index]) => index);
        out.set(key, kept.length === file.requests.size ? 'all' : new Set(kept));
        continue;
      }
      const current = out.get(key);
      if (current === 'all') continue;
      out.set(key, new Set([...(current ?? []), node.index]));
    }
    return out;
  }

  private async runRequest(run: vscode.TestRun, file: ReadFile, r: ParsedRequest, item: vscode.TestItem, responses: Map<string, ChainedResponse>, signal: AbortSignal, recording: RunRecording): Promise<void> {
    const checks = assertionItems(item, r);
    run.started(item);
    for (const c of checks) run.started(c);
    const skipChecks = (): void => checks.forEach((c) => run.skipped(c));
    // A request file may come from anyone's repository: in Restricted Mode nothing goes out with a token.
    if (!vscode.workspace.isTrusted) {
      run.errored(item, this.message(file, item, r.requestLine, 'This folder is in Restricted Mode, so request files send nothing with your token. Trust the folder ("Workspaces: Manage Workspace Trust") if you trust its request files, then run again.'));
      skipChecks();
      throw new StopRun();
    }
    // The request's `# @connection` (or the file's), else the active one, as Send chooses.
    const place = (line: number): string => `${vscode.workspace.asRelativePath(file.uri)}:${line + 1}`;
    const choice = connectionOfRequest(file.parsed, r, this.services.connections.choice());
    const connection = choice.ok ? this.services.connections.named(choice.name) : undefined;
    if (!choice.ok || !connection) {
      const line = choice.ok ? r.requestLine : choice.line;
      run.errored(item, this.message(file, item, line, `${place(line)}: ${choice.ok ? `The connection "${choice.name}" cannot be used now.` : choice.message}`));
      skipChecks();
      return;
    }
    // The request's settings as Send honours them: `# @disabled` is skipped, `# @note` asks, `# @prompt` asks for values.
    const label = r.name ?? `the request at line ${r.requestLine + 1}`;
    if (r.settings.disabled || (r.settings.note !== undefined && !(await confirmNote(r.settings.note, label)))) {
      run.skipped(item);
      skipChecks();
      return;
    }
    const inputs = await requestInputs(file.uri, r, label);
    if (!inputs) {
      run.skipped(item);
      skipChecks();
      return;
    }
    for (const p of r.settings.prompts) if (p.secret) connection.getClient().addSecret(inputs.prompts?.get(p.name) ?? '');
    const prepared = await prepareToSend(file.parsed, r, connection.settings().endpoints, responses, inputs);
    if (!prepared.ok) {
      run.errored(item, this.message(file, item, prepared.line, `${place(prepared.line)}: ${prepared.message}`));
      skipChecks();
      return;
    }
    const notReady = await connection.readiness(prepared.request.interfaceId);
    if (notReady) {
      // One offer for the run: every other request would need the same.
      void offerToGetReady(notReady);
      run.errored(item, this.message(file, item, r.requestLine, 'Not signed in, or the service address is not set: sign in or start the local sandbox, then run again.'));
      skipChecks();
      throw new StopRun();
    }
    recording.watch(connection);
    const answer = await sendForAnswer(connection, this.services, prepared.request, { signal });
    const result = answer.result;
    const record = (verdict: ReportVerdict, more: { readonly assertions?: readonly AssertionOutcome[]; readonly message?: string } = {}): void =>
      recording.add(vscode.workspace.asRelativePath(file.uri), r, { verdict, connection: connection.name, sent: prepared.request, result, ...more });
    const entry = await keepInHistory(this.services, { kind: 'request', request: prepared.request, name: r.name }, answer, connection.name);
    if (entry) this.services.testAnswers.set(item.id, toResultUri(entry).toString());
    else this.services.testAnswers.forget(item.id);
    run.appendOutput(`${safeLine(item.label)}: ${safeLine(this.redact(answerLine(result)))}\r\n`, new vscode.Location(file.uri, new vscode.Position(r.requestLine, 0)), item);
    const verdict = verdictOf(result);
    if (verdict.kind === 'stop') {
      skipChecks();
      if (verdict.reason === 'cancelled') run.skipped(item);
      else run.errored(item, this.message(file, item, r.requestLine, `The lockout guard stopped the run: ${failureText(result)}`), result.durationMs);
      record(verdict.reason === 'cancelled' ? 'skipped' : 'error', { message: failureText(result) });
      throw new StopRun();
    }
    if (verdict.kind === 'error') {
      skipChecks();
      run.errored(item, this.message(file, item, r.requestLine, failureText(result)), result.durationMs);
      record('error', { message: failureText(result) });
      return;
    }
    if (result.ok && r.name !== undefined) {
      const chained = chainedFrom(result, answer.json);
      responses.set(r.name, chained);
      // An open editor's Send chains on what the run got, as on its own sends.
      if (isOpen(file.uri)) this.services.responses.remember(file.uri.toString(), r.name, chained);
    }
    // Judged with the redaction of every connection's secrets: an actual value that holds one is withheld.
    const outcomes = evaluateAssertions(r.assertions, answerOf(result), (t) => this.redact(t));
    outcomes.forEach((o, i) => {
      const check = checks[i];
      if (o.passed) run.passed(check);
      else run.failed(check, this.assertionMessage(file, check, o));
    });
    const passed = requestPassed(outcomes, result.ok);
    if (passed) run.passed(item, result.durationMs);
    else run.failed(item, this.message(file, item, r.requestLine, requestFailure(file, result, outcomes)), result.durationMs);
    record(passed ? 'passed' : 'failed', { assertions: outcomes, ...(outcomes.every((o) => o.passed) && !passed ? { message: failureText(result) } : {}) });
  }

  private assertionMessage(file: ReadFile, check: vscode.TestItem, o: AssertionOutcome): vscode.TestMessage {
    const message = this.message(file, check, o.line, o.message);
    const diff = diffOf(o);
    if (diff) {
      message.expectedOutput = this.redact(diff.expected);
      message.actualOutput = this.redact(diff.actual);
    }
    return message;
  }

  /** The one redaction (core/redact.ts) with the secrets of every connection: nothing the run shows holds one. */
  private redact(text: string): string {
    return this.services.connections.redact(text);
  }

  /** A message at a line of the file, with a link that opens the test's answer when there is one. */
  private message(file: ReadFile, item: vscode.TestItem, line: number, text: string): vscode.TestMessage {
    const markdown = new vscode.MarkdownString(undefined, true);
    markdown.appendText(safeText(this.redact(text)));
    const answered = this.services.testAnswers.of(item.id) !== undefined;
    if (answered) {
      markdown.isTrusted = { enabledCommands: [Commands.openTestAnswer] };
      markdown.appendMarkdown(`\n\n[Open the answer](command:${Commands.openTestAnswer}?${encodeURIComponent(JSON.stringify({ testId: item.id }))})`);
    }
    const message = new vscode.TestMessage(markdown);
    message.location = new vscode.Location(file.uri, new vscode.Position(line, 0));
    if (answered) message.contextValue = ANSWER_CONTEXT;
    return message;
  }
}

/** The assertion items of a request's item, in the order of its assertions. */
function assertionItems(item: vscode.TestItem, r: ParsedRequest): vscode.TestItem[] {
  return r.assertions.flatMap((_, i) => item.children.get(`${item.id}/a${i}`) ?? []);
}

function failureText(result: CallResult): string {
  return result.ok || !result.advice ? answerLine(result) : `${answerLine(result)} ${result.advice}`;
}

/** Why a request that got an answer failed: its assertions that did not hold, or (with none) the answer. */
function requestFailure(file: ReadFile, result: CallResult, outcomes: readonly AssertionOutcome[]): string {
  const failed = outcomes.filter((o) => !o.passed);
  if (failed.length === 0) return `The answer is not a success: ${failureText(result)}`;
  const where = vscode.workspace.asRelativePath(file.uri);
  return [`${failed.length} of ${outcomes.length} assertions failed (${answerLine(result)}):`, ...failed.map((o) => `${where}:${o.line + 1}: ${o.message}`)].join('\n');
}

/** The context value of messages whose test has an answer to open (package.json's `testing/message/context`). */
export const ANSWER_CONTEXT = 'bizdata.testAnswer';

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => !d.isClosed && d.uri.toString() === uri.toString());
}

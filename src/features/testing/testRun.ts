// One run of the Test Explorer: each chosen file's requests in file order (with the named requests they
// chain on), each sent as the editor's Send sends it (prepareRequest, then sendForAnswer under the
// connection's lockout guard), kept in the history so its answer opens from the result, and judged.
// Cancelling aborts the request on the wire and skips the rest; a refusal by the lockout guard is an
// error that ends the run, never a failed assertion.
import * as vscode from 'vscode';
import type { CallResult } from '../../core/model';
import type { ParsedRequest } from '../../core/requests/requestFile';
import type { ChainedResponse } from '../../core/requests/requestVariables';
import { safeLine, safeText } from '../../core/sanitize';
import { offerToGetReady } from '../connection/readinessOffer';
import { prepareRequest } from '../requestFiles/prepareRequest';
import { keepInHistory, sendForAnswer } from '../results/lookUpAndShow';
import type { Services } from '../services';
import { Commands } from '../shared/commandIds';
import { chainedFrom } from '../state/chainedResponses';
import { toResultUri } from '../state/resultUri';
import type { TestAnswers } from '../state/testAnswers';
import { answerLine, passesWithoutAssertions, runOrder, verdictOf } from './requestTests';
import type { ReadFile, RequestTestTree } from './testTree';

export type RunServices = Pick<Services, 'connection' | 'scanner' | 'lookups' | 'responses'> & { readonly testAnswers: TestAnswers };

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
    try {
      const chosen = await this.chosen(request);
      let stopped = false;
      for (const [uri, indexes] of chosen) {
        const file = await this.tree.read(vscode.Uri.parse(uri));
        const order = runOrder(file.text, file.parsed, indexes === 'all' ? new Set(file.parsed.requests.map((r) => r.index)) : indexes);
        for (const r of order) {
          const item = file.requests.get(r.index);
          if (item) run.enqueued(item);
        }
        const responses = new Map<string, ChainedResponse>();
        for (const r of order) {
          const item = file.requests.get(r.index);
          if (!item) continue;
          if (stopped || abort.signal.aborted) {
            run.skipped(item);
            continue;
          }
          try {
            await this.runRequest(run, file, r, item, responses, abort.signal);
          } catch (err) {
            if (!(err instanceof StopRun)) throw err;
            stopped = true;
          }
        }
      }
    } finally {
      cancelled.dispose();
      run.end();
    }
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

  private async runRequest(run: vscode.TestRun, file: ReadFile, r: ParsedRequest, item: vscode.TestItem, responses: Map<string, ChainedResponse>, signal: AbortSignal): Promise<void> {
    run.started(item);
    const endpoints = this.services.connection.settings().endpoints;
    const prepared = prepareRequest(file.parsed, r, endpoints, responses);
    if (!prepared.ok) {
      run.errored(item, messageAt(file.uri, prepared.line, `${vscode.workspace.asRelativePath(file.uri)}:${prepared.line + 1}: ${prepared.message}`));
      return;
    }
    const notReady = await this.services.connection.readiness(prepared.request.interfaceId);
    if (notReady) {
      // One offer for the run: every other request would need the same.
      void offerToGetReady(notReady);
      run.errored(item, messageAt(file.uri, r.requestLine, 'Not signed in, or the service address is not set: sign in or start the local sandbox, then run again.'));
      throw new StopRun();
    }
    const answer = await sendForAnswer(this.services, prepared.request, { signal });
    const result = answer.result;
    const entry = await keepInHistory(this.services, { kind: 'request', request: prepared.request, name: r.name }, answer);
    if (entry) this.services.testAnswers.set(item.id, toResultUri(entry).toString());
    else this.services.testAnswers.forget(item.id);
    run.appendOutput(`${safeLine(item.label)}: ${safeLine(answerLine(result))}\r\n`, new vscode.Location(file.uri, new vscode.Position(r.requestLine, 0)), item);
    const verdict = verdictOf(result);
    if (verdict.kind === 'stop') {
      if (verdict.reason === 'cancelled') run.skipped(item);
      else run.errored(item, this.failureMessage(file, r, item, result, 'The lockout guard stopped the run: '), result.durationMs);
      throw new StopRun();
    }
    if (verdict.kind === 'error') {
      run.errored(item, this.failureMessage(file, r, item, result, ''), result.durationMs);
      return;
    }
    if (result.ok && r.name !== undefined) {
      const chained = chainedFrom(result, answer.json);
      responses.set(r.name, chained);
      // An open editor's Send chains on what the run got, as on its own sends.
      if (isOpen(file.uri)) this.services.responses.remember(file.uri.toString(), r.name, chained);
    }
    if (passesWithoutAssertions(result)) run.passed(item, result.durationMs);
    else run.failed(item, this.failureMessage(file, r, item, result, 'The answer is not a success: '), result.durationMs);
  }

  /** The failure in words at the request line, with a link that opens the answer when there is one. */
  private failureMessage(file: ReadFile, r: ParsedRequest, item: vscode.TestItem, result: CallResult, lead: string): vscode.TestMessage {
    const text = result.ok ? answerLine(result) : `${answerLine(result)}${result.advice ? ` ${result.advice}` : ''}`;
    const markdown = new vscode.MarkdownString(undefined, true);
    markdown.appendText(safeText(`${lead}${text}`));
    if (this.services.testAnswers.of(item.id) !== undefined) {
      markdown.isTrusted = { enabledCommands: [Commands.openTestAnswer] };
      markdown.appendMarkdown(`\n\n[Open the answer](command:${Commands.openTestAnswer}?${encodeURIComponent(JSON.stringify({ testId: item.id }))})`);
    }
    const message = new vscode.TestMessage(markdown);
    message.location = new vscode.Location(file.uri, new vscode.Position(r.requestLine, 0));
    message.contextValue = ANSWER_CONTEXT;
    return message;
  }
}

/** The context value of messages whose test has an answer to open (package.json's `testing/message/context`). */
export const ANSWER_CONTEXT = 'bizdata.testAnswer';

function messageAt(uri: vscode.Uri, line: number, text: string): vscode.TestMessage {
  const message = new vscode.TestMessage(safeLine(text));
  message.location = new vscode.Location(uri, new vscode.Position(line, 0));
  return message;
}

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => !d.isClosed && d.uri.toString() === uri.toString());
}

// One run of the Test Explorer, as a host of the run engine (core/run/engine.ts, through the editor's
// host, requestFiles/editorRunHost.ts): the run's edges checked and its questions asked once for all
// its files before anything is sent (editorEdges.ts: a refused file's first test errs with every
// refusal at its FILE:LINE or ROWS:LINE and sends nothing; the others run), then each chosen file's requests in file
// order (with the named requests they chain on), sent, judged, chained and stopped by the engine as
// `bizdata test` runs them;
// this runner only shows the engine's events as test results, keeps each answer in the history so it
// opens from its test, and records the run for its report. A data-driven file runs as one test per
// row (testRows.ts). Cancelling aborts the request on the wire and skips the rest.
import * as vscode from 'vscode';
import type { CallFailure, CallResult } from '../../core/model';
import { STOPPING } from '../../core/run/stops';
import type { AssertionOutcome } from '../../core/requests/assertions';
import type { ParsedRequest } from '../../core/requests/requestFile';
import { runRequests, type RunEvent } from '../../core/run/engine';
import type { RequestOutcome } from '../../core/run/judge';
import { safeLine, safeText } from '../../core/sanitize';
import { openDataFile, type DataSource } from '../../core/data/dataSource';
import { RESTRICTED_MODE, refusalText, type Refusal } from '../../core/run/preflight';
import { editorEdges, readRoot, type EditorEdges, type EditorFile } from '../requestFiles/editorEdges';
import { editorRunHost, type EditorSend } from '../requestFiles/editorRunHost';
import { keepInHistory, sendForAnswer } from '../results/lookUpAndShow';
import type { ReadyAnswer } from '../results/largeAnswers';
import type { Services } from '../services';
import { Commands } from '../shared/commandIds';
import { toResultUri } from '../state/resultUri';
import type { TestAnswers } from '../state/testAnswers';
import { answerLine, diffOf, runOrder } from './requestTests';
import type { ReadFile, RequestTestTree } from './testTree';
import { RunRecording } from './testRunReport';
import { runTestRows } from './testRows';

export type RunServices = Pick<Services, 'connections' | 'scanner' | 'lookups' | 'responses' | 'reports'> & { readonly testAnswers: TestAnswers };

interface Planned {
  readonly file: ReadFile;
  readonly order: readonly ParsedRequest[];
  /** A data-driven file's chosen rows, by line. */
  readonly rows?: ReadonlySet<number> | 'all';
  /** Its data file, opened for the run; `unread`: why it could not be. */
  readonly source?: DataSource;
  readonly unread?: string;
}

/** A planned file as the run's edges take it: what runs, with its data file. */
function editorFileOf(p: Planned): EditorFile {
  const requests = p.order.filter((r) => !r.settings.disabled);
  return { uri: p.file.uri, text: p.file.text, parsed: p.file.parsed, requests, ...(p.source ? { data: p.source } : {}) };
}

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
    const sources: DataSource[] = [];
    try {
      const planned: Planned[] = [];
      for (const [uri, indexes] of await this.chosen(request)) {
        const file = await this.tree.read(vscode.Uri.parse(uri));
        if (file.data) {
          // A data-driven file: its chosen rows, each a test (testRows.ts), read again through the door for the run.
          const opened = await openDataFile(file.data.uri.fsPath, { named: vscode.workspace.asRelativePath(file.data.uri), root: readRoot(file.uri) });
          if (opened.ok) sources.push(opened.source);
          planned.push({ file, order: file.parsed.requests, rows: indexes, source: opened.ok ? opened.source : undefined, unread: opened.ok ? undefined : opened.message });
          file.data.items.forEach((row, line) => (indexes === 'all' || indexes.has(line) ? run.enqueued(row) : undefined));
          continue;
        }
        const order = runOrder(file.text, file.parsed, indexes === 'all' ? new Set(file.parsed.requests.map((r) => r.index)) : indexes);
        planned.push({ file, order });
        for (const r of order) for (const queued of itemsOf(file, r)) run.enqueued(queued);
      }
      const edges = await this.edgesOf(run, planned);
      if (!edges) return;
      let stopped = false;
      const skip = (item: vscode.TestItem): void => run.skipped(item);
      for (const p of planned) {
        const { file, order, rows, source } = p;
        if (edges.refused.has(p)) continue;
        if (stopped || abort.signal.aborted) {
          this.itemsOf(p).forEach(skip);
          continue;
        }
        if (rows && source) {
          const send: EditorSend = async (connection, sent, _r, call) => (recording.watch(connection), (await sendForAnswer(call, this.services, sent, { signal: abort.signal })).result);
          const message = (item: vscode.TestItem, uri: vscode.Uri, line: number, text: string): vscode.TestMessage => this.message({ ...file, uri }, item, line, text);
          stopped = await runTestRows({ run, file, lines: rows, source, edges: edges.edges, services: this.services, send, signal: abort.signal, message });
        } else stopped = await this.runFile(run, file, order, edges.edges, abort.signal, recording);
      }
    } finally {
      cancelled.dispose();
      for (const source of sources) await source.close();
      this.services.reports.keep(recording.report());
      recording.dispose();
      // The testing API has no link in a run's output; the command is in each test's context menu too.
      run.appendOutput('The report of this run: "Business Data: Open Report" (Command Palette, or a test\'s context menu).\r\n');
      run.end();
    }
  }

  /**
   * The run's edges, once for all its files (core/run/preflight.ts), as `bizdata test` checks them:
   * a file refused sends nothing (its first test errs with every refusal at FILE:LINE or ROWS:LINE,
   * its others are skipped) and the run goes on with the others; a refusal of the whole run (Restricted
   * Mode) or a question declined sends nothing at all. Undefined when nothing runs.
   */
  private async edgesOf(run: vscode.TestRun, planned: readonly Planned[]): Promise<{ readonly edges: EditorEdges; readonly refused: ReadonlySet<Planned> } | undefined> {
    const refused = new Set<Planned>();
    const refuse = (p: Planned, refusals: readonly Refusal[], more = 0): void => {
      // A data file that cannot be read has no rows: the file's own test says why.
      const [first = p.file.item, ...rest] = this.itemsOf(p);
      run.errored(first, this.refusalMessage(p.file, first, refusals, more));
      rest.forEach((item) => run.skipped(item));
      refused.add(p);
    };
    for (const p of planned) if (p.unread !== undefined) refuse(p, [{ file: vscode.workspace.asRelativePath(p.file.uri), message: p.unread }]);
    for (;;) {
      const left = planned.filter((p) => !refused.has(p));
      if (left.length === 0) return undefined;
      const edges = await editorEdges(this.services.connections, left.map(editorFileOf), 'Run these tests');
      if (edges.ok) return { edges, refused };
      const whose = (r: Refusal): Planned | undefined => left.find((p) => [p.file.uri, p.file.data?.uri].some((u) => u !== undefined && vscode.workspace.asRelativePath(u) === r.file));
      const byFile = 'refusals' in edges ? edges.refusals.map((r) => [r, whose(r)] as const) : [];
      // Declined, or refused as a whole: nothing of the run is sent.
      if (byFile.length === 0 || byFile.some(([, p]) => p === undefined)) {
        const all = left.flatMap((p) => this.itemsOf(p));
        if ('refusals' in edges && all[0]) run.errored(all[0], this.refusalMessage(left[0].file, all[0], edges.refusals, edges.more));
        all.slice('refusals' in edges ? 1 : 0).forEach((item) => run.skipped(item));
        return undefined;
      }
      for (const p of new Set(byFile.map(([, q]) => q as Planned))) refuse(p, byFile.filter(([, q]) => q === p).map(([r]) => r), 'refusals' in edges ? edges.more : 0);
    }
  }

  /** A planned file's items that run: its requests and their checks, or its chosen rows. */
  private itemsOf(p: Planned): vscode.TestItem[] {
    if (p.rows) return [...(p.file.data?.items ?? [])].filter(([line]) => p.rows === 'all' || p.rows?.has(line)).map(([, item]) => item);
    return p.order.flatMap((r) => itemsOf(p.file, r));
  }

  /** The refusals of a run, at the first refusal's place, in the preflight's words (FILE:LINE or ROWS:LINE). */
  private refusalMessage(file: ReadFile, item: vscode.TestItem, refusals: readonly Refusal[], more: number): vscode.TestMessage {
    const text = [...refusals.map(refusalText), ...(more > 0 ? [`(and ${more} more of the same kind)`] : [])].join('\n');
    const first = refusals[0];
    const inFile = first?.file === vscode.workspace.asRelativePath(file.uri);
    return this.message(file, item, inFile && first.line !== undefined ? first.line - 1 : 0, first?.message === RESTRICTED_MODE ? RESTRICTED_MODE : `Nothing was sent:\n${text}`);
  }

  /** Runs one file's requests through the engine; true when the run stopped (stops.ts, or cancelled). */
  private async runFile(run: vscode.TestRun, file: ReadFile, order: readonly ParsedRequest[], edges: EditorEdges, signal: AbortSignal, recording: RunRecording): Promise<boolean> {
    const answers = new WeakMap<CallResult, ReadyAnswer>();
    const where = vscode.workspace.asRelativePath(file.uri);
    const send: EditorSend = async (connection, request, _r, call) => {
      recording.watch(connection);
      const answer = await sendForAnswer(call, this.services, request, { signal });
      answers.set(answer.result, answer);
      return answer.result;
    };
    const on = async (e: RunEvent): Promise<void> => {
      const item = file.requests.get((e.kind === 'answered' ? e.step.request : e.kind === 'judged' ? e.outcome.request : e.request).index);
      if (!item) return;
      if (e.kind === 'stopped') run.appendOutput(`${safeLine(item.label)}: ${safeLine(this.redact(stopLine(e.failure)))}\r\n`, undefined, item);
      else if (e.kind === 'skipped') for (const skipped of itemsOf(file, e.request)) run.skipped(skipped);
      else if (e.kind === 'started') for (const started of itemsOf(file, e.request)) run.started(started);
      else if (e.kind === 'answered') {
        const { request: r, sent, result, route } = e.step;
        const answer = answers.get(result);
        const entry = answer && (await keepInHistory(this.services, { kind: 'request', request: sent, name: r.name }, answer, route.name));
        if (entry) this.services.testAnswers.set(item.id, toResultUri(entry).toString());
        else this.services.testAnswers.forget(item.id);
        run.appendOutput(`${safeLine(item.label)}: ${safeLine(this.redact(answerLine(result)))}\r\n`, new vscode.Location(file.uri, new vscode.Position(r.requestLine, 0)), item);
      } else if (e.kind === 'judged') {
        this.show(run, file, item, e.outcome, e.step !== undefined);
        recording.add(where, e.outcome.request, { verdict: e.outcome.verdict, connection: e.step?.route.name, sent: e.step?.sent, result: e.step?.result, assertions: e.outcome.assertions, message: e.outcome.message });
      }
    };
    const host = editorRunHost({ connections: this.services.connections, edges, uri: file.uri, send, signal, on });
    const summary = await runRequests({ file: file.parsed, requests: order, until: 'end' }, host);
    // An open editor's Send chains on what the run got, as on its own sends.
    if (isOpen(file.uri)) for (const [name, chained] of summary.responses) this.services.responses.remember(file.uri.toString(), name, chained);
    return summary.stopped !== undefined;
  }

  /** The engine's verdict as the test's result: the request's, and each assertion's. */
  private show(run: vscode.TestRun, file: ReadFile, item: vscode.TestItem, o: RequestOutcome, sent: boolean): void {
    const checks = itemsOf(file, o.request).slice(1);
    checks.forEach((check, i) => {
      const a = o.assertions[i];
      if (!a || o.verdict === 'error') run.skipped(check);
      else if (a.passed) run.passed(check);
      else run.failed(check, this.assertionMessage(file, check, a));
    });
    // A request that could not be sent says where; the others' messages are the engine's words.
    const text = o.message === undefined ? assertionFailures(file, o) : sent ? o.message : `${vscode.workspace.asRelativePath(file.uri)}:${o.line + 1}: ${o.message}`;
    if (o.verdict === 'passed') run.passed(item, o.durationMs);
    else if (o.verdict === 'failed') run.failed(item, this.message(file, item, o.line, text), o.durationMs);
    else run.errored(item, this.message(file, item, o.line, text), o.durationMs);
  }

  /** File URI → the request indexes (a data-driven file: the rows' lines) chosen in it ('all' for a whole file), honouring `exclude`. */
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
        // Excluded requests (or rows) of a file leave the rest of it.
        const file = await this.tree.read(node.uri);
        const children = file.data ? file.data.items : file.requests;
        const kept = [...children].filter(([, child]) => !excluded.has(child.id)).map(([index]) => index);
        out.set(key, kept.length === children.size ? 'all' : new Set(kept));
        continue;
      }
      const current = out.get(key);
      if (current === 'all') continue;
      out.set(key, new Set([...(current ?? []), node.kind === 'row' ? node.line : node.index]));
    }
    return out;
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

/** A request's item, then its assertions' items in the order of its assertions. */
function itemsOf(file: ReadFile, r: ParsedRequest): vscode.TestItem[] {
  const item = file.requests.get(r.index);
  if (!item) return [];
  return [item, ...r.assertions.flatMap((_, i) => item.children.get(`${item.id}/a${i}`) ?? [])];
}

/** Why a request failed on its assertions: each that did not hold, at its line. */
function assertionFailures(file: ReadFile, o: RequestOutcome): string {
  const failed = o.assertions.filter((a) => !a.passed);
  const answer = [o.status !== undefined ? `HTTP ${o.status}` : undefined, o.code].filter(Boolean).join(' ');
  const where = vscode.workspace.asRelativePath(file.uri);
  return [`${failed.length} of ${o.assertions.length} assertions failed${answer ? ` (${answer})` : ''}:`, ...failed.map((a) => `${where}:${a.line + 1}: ${a.message}`)].join('\n');
}

/** Why the run ends here, in the words of the one stop table (core/run/stops.ts). */
function stopLine(failure: CallFailure | undefined): string {
  const why = failure ? STOPPING[failure.kind] : undefined;
  return `the run stopped here${why ? `: ${why}` : ''}; no other request was sent.`;
}

/** The context value of messages whose test has an answer to open (package.json's `testing/message/context`). */
export const ANSWER_CONTEXT = 'bizdata.testAnswer';

function isOpen(uri: vscode.Uri): boolean {
  return vscode.workspace.textDocuments.some((d) => !d.isClosed && d.uri.toString() === uri.toString());
}

// What a Test Explorer run (or a Run with Data) gathers for its report: each request's outcome, and
// every call and wait of the connections it used (tapped for this run only, so the client decides
// nothing differently). When the run ends it is kept for "Open Report" (state/runReports.ts).
import * as vscode from 'vscode';
import type { CallResult, WireEvent } from '../../core/model';
import type { AssertionOutcome } from '../../core/requests/assertions';
import type { ParsedRequest } from '../../core/requests/requestFile';
import { requestName } from '../../core/run/judge';
import type { ReportTest, ReportVerdict } from '../../core/report/reportModel';
import { answerText, runLimit } from '../../core/report/runRecords';
import type { Connection } from '../connection/connection';
import type { KeptReport } from '../state/runReports';

export class RunRecording implements vscode.Disposable {
  private readonly tests: ReportTest[] = [];
  private readonly wire: WireEvent[] = [];
  private readonly taps = new Map<Connection, vscode.Disposable>();
  private readonly files = new Set<string>();
  private readonly startedAt = Date.now();

  /** `title`: the report's (default: "Test run: " and the files). */
  constructor(private readonly title?: string) {}

  /** Hears the connection's calls for the rest of the run. */
  watch(connection: Connection): void {
    if (!this.taps.has(connection)) this.taps.set(connection, connection.tapWire((e) => this.wire.push(e)));
  }

  /** A request's outcome; `file` as the workspace names it. */
  add(file: string, r: ParsedRequest, outcome: { readonly verdict: ReportVerdict; readonly name?: string; readonly connection?: string; readonly sent?: { readonly method: string; readonly url: string }; readonly result?: CallResult; readonly assertions?: readonly AssertionOutcome[]; readonly message?: string }): void {
    const { verdict, result, sent } = outcome;
    const failing = verdict === 'failed' || verdict === 'error';
    const answer = result && failing ? answerText(result) : undefined;
    this.files.add(file);
    this.tests.push({
      name: outcome.name ?? requestName(r),
      file,
      line: r.requestLine + 1,
      verdict,
      method: sent?.method ?? r.method,
      url: result?.request?.url ?? sent?.url ?? r.url,
      ...(outcome.connection !== undefined ? { connection: outcome.connection } : {}),
      status: result?.status,
      code: result?.code,
      durationMs: result?.durationMs,
      failedAssertions: (outcome.assertions ?? []).filter((a) => !a.passed).map((a) => ({ line: a.line + 1, text: a.assertion.text, expected: a.expected, actual: a.actual })),
      ...(outcome.message !== undefined ? { message: outcome.message, messageLine: r.requestLine + 1 } : {}),
      ...(failing && result?.request ? { request: result.request } : {}),
      ...(answer !== undefined ? { answer } : {}),
    });
  }

  /** The run as its report shows it, redacted with every secret its connections have seen. */
  report(): KeptReport {
    const connections = [...this.taps.keys()];
    const first = connections[0];
    return {
      run: {
        title: this.title ?? `Test run: ${[...this.files].join(', ') || 'no request'}`,
        kind: 'test',
        startedAt: this.startedAt,
        durationMs: Date.now() - this.startedAt,
        connections: connections.map((c) => c.name),
        wire: this.wire,
        ...(first ? { limit: runLimit(first.getClient().limiterState()) } : {}),
        tests: this.tests,
      },
      redact: (text) => connections.reduce((t, c) => c.secrets.redact(t), text),
    };
  }

  dispose(): void {
    for (const tap of this.taps.values()) tap.dispose();
    this.taps.clear();
  }
}

// A judged request as a run's report keeps it, the same for every host (`bizdata test`, a data run's
// failed rows): its place, its verdict, the assertions that did not hold, and for a request that did
// not pass what was sent (credentials already placeholders) and the answer. Redacted when the report
// is made (core/report/reportModel.ts).
import type { CallResult } from '../model';
import type { ReportTest } from '../report/reportModel';
import { answerText } from '../report/runRecords';
import type { RequestOutcome } from './judge';

/** `file`: the request file as the run names it; `result`: the call's, when it was sent. */
export function outcomeTest(file: string, o: RequestOutcome, result: CallResult | undefined, connection?: string): ReportTest {
  const failing = o.verdict !== 'passed';
  const answer = result && failing ? answerText(result) : undefined;
  return {
    name: o.name,
    file,
    line: o.request.requestLine + 1,
    verdict: o.verdict,
    method: o.method,
    // The call's record of the URL, as the wire's events name it (the slowest calls are matched by it).
    url: result && !(!result.ok && result.signIn) && result.request ? result.request.url : (o.url ?? o.request.url),
    ...(connection !== undefined ? { connection } : {}),
    status: o.status,
    code: o.code,
    durationMs: o.durationMs,
    failedAssertions: o.assertions.filter((a) => !a.passed).map((a) => ({ line: a.line + 1, text: a.assertion.text, expected: a.expected, actual: a.actual })),
    ...(o.message !== undefined ? { message: o.message, messageLine: o.line + 1 } : {}),
    ...(failing && result?.request ? { request: result.request } : {}),
    ...(answer !== undefined ? { answer } : {}),
  };
}

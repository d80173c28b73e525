// `bizdata send FILE [--name NAME]...`: the requests of a request file (`.bizdata.http`) run by the run
// engine (core/run/engine.ts) as a script: in order, each response printed as it comes, the run ended
// at the first request that does not pass.
import { runRequests, type RunEvent } from '../core/run/engine';
import { requestName } from '../core/run/judge';
import { cliRunHost } from './runHost';
import { DATA_OPTIONS, DATA_SEND_HELP, sendWithData } from './dataRun';
import { dataOfRun } from './dataFileBeside';
import { requestLines } from './testReport';
import { safeJson, safeLine, safeText } from '../core/sanitize';
import { allDisabledLine } from '../core/requests/requestSettings';
import { REQUEST_INPUT_HELP, REQUEST_INPUT_OPTIONS } from './requestInputs';
import type { ParsedRequest } from '../core/requests/requestFile';
import { cliConnections, cliEdges, loadRequestFile } from './runEdges';
import { parse } from './args';
import { CONNECTION_HELP, CONNECTION_OPTIONS } from './connectionOptions';
import { printFailure } from './output';
import { chooseConnection } from './connections';
import { PRODUCTION_HELP, PRODUCTION_OPTIONS, refuseRunProblems, requestClients } from './requestClients';
import { runLimit } from '../core/report/runRecords';
import { EXIT, UsageError, type CliIo } from './io';
import { endBySignal, requestFileStop } from './signals';
import type { ReportTest } from '../core/report/reportModel';
import { recorderFor, REPORT_HELP, REPORT_OPTIONS, sentRequest, writeRunReport } from './runReportFile';

export const SEND_HELP = `Usage: bizdata send FILE [--name NAME]... [--report FILE.html] [connection options]
       bizdata send FILE --data ROWS.csv|ROWS.jsonl [--out RESULTS.jsonl|RESULTS.csv] [--column NAME=JSONPATH]... [--concurrency N]

Sends the requests of a request file (the .http syntax of REST Client and httpYac; we suggest the
name *.bizdata.http) with the signed-in account's token, in file order, or only the requests named
with --name (repeatable). Each response's body is printed on stdout (JSON pretty-printed, anything
else as sent); one line per request on stderr says what was sent and what came back.

The file never holds a token or a credential: the client adds Authorization (Bearer for Interface A,
the raw token for Interface B) and Origin (Interface A). Authorization, x-svc-user and x-svc-pwd
headers written in the file are dropped with a warning. A request is sent only to a configured
service address, with the same scheme, host and port (localhost, 127.0.0.1 and [::1] are different
hosts); "# @interface a|b" above a request names its token, otherwise the address decides.

"# @connection NAME" above a request sends it through that connection (its addresses, its hosts for
the token, its limits); at the top of the file, above the first request line, it is every request's
that names none. Otherwise the run's connection (--connection, BIZDATA_CONNECTION, "active"). The
flags that override a connection's fields apply to the run's connection only. A name that names no
connection refuses the file at its line. The line on stderr starts with [NAME] for a named connection.
Each connection's requests carry only that connection's credentials (see "Credentials" below).

${PRODUCTION_HELP}

Variables: {{baseUrl}}, {{authUrl}}, {{legacyUrl}}, {{origin}}, {{aVersion}}, {{authVersion}},
{{orgVersion}} (the request's connection's), the file's own "@name = value" ({{%name}}
percent-encodes it), the answers to "# @prompt NAME", chained values of an earlier named request
("# @name login"): {{login.response.body.$.a.b}}, {{login.response.headers.Content-Type}}, and the
system variables of REST Client and httpYac: {{$guid}}, {{$uuid}}, {{$randomInt MIN MAX}},
{{$timestamp [OFFSET UNIT]}}, {{$datetime rfc1123|iso8601|"FORMAT" [OFFSET UNIT]}},
{{$localDatetime ...}}, {{$isoTimestamp}}, {{$dotenv NAME}} (the .env file beside the request file)
and {{$processEnv NAME}} (only with --allow-env NAME; never a BIZDATA_ variable).

Bodies are sent as REST Client and httpYac send them: "< ./file" (its bytes), "<@ ./file" and
"<@latin1 ./file" (its text with variables replaced), only from inside the request file's folder;
multipart/form-data with CRLF line ends; form bodies over "&" lines joined; comment lines dropped;
GraphQL ("X-Request-Type: GraphQL") as {"query", "variables"} JSON. Requests marked "# @disabled"
are skipped; "# @note" asks first (see --confirm-notes).

A file with an error sends nothing: each error is printed as FILE:LINE: what is wrong, exit status 2
(a line that is not a header, a "{{" that is not closed, a U+2028 or a control character, a file that
is compressed or not text). CR, LF and CRLF line ends are all read.

The run stops at the first request that does not pass, as "bizdata test" judges it: an answer that
is no success (unless "??" assertions under it expect it, as "?? status == 404"), or an assertion
that fails (exit status 1); a failure of the call exits with its own status (below). Ctrl-C (SIGINT) or
SIGTERM gives the request on its way 0.75 s to be answered and printed (then cuts it), sends
no other, and ends the process by that signal (exit status 130 or 143 in a shell); a second Ctrl-C stops at once.

${REQUEST_INPUT_HELP}

${DATA_SEND_HELP}

Report:
${REPORT_HELP}

${CONNECTION_HELP}`;

const SEND_OPTIONS = { ...CONNECTION_OPTIONS, ...REQUEST_INPUT_OPTIONS, ...PRODUCTION_OPTIONS, ...REPORT_OPTIONS, ...DATA_OPTIONS, name: { type: 'string', multiple: true } } as const;

export async function runSendCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, SEND_OPTIONS, true);
  if (values.help) {
    io.stdout.write(SEND_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('Give exactly one request file: bizdata send FILE [--name NAME]. See "bizdata send --help".');
  const file = positionals[0];
  const data = await dataOfRun(values.data, [file], io);
  if (data !== undefined) {
    if (values.name !== undefined || values.report !== undefined) throw new UsageError('--name and --report do not go with --data: a data-driven run runs every request of the file once per row, and its results are the --out file.');
    return sendWithData(file, { ...values, data }, io);
  }
  if (values.out !== undefined || values.column !== undefined) throw new UsageError('--out and --column go with --data ROWS.csv: the results of a data-driven run. See "bizdata send --help".');
  const loaded = await loadRequestFile(file, values, io, 'send', (all) => select(all, values.name ?? [], file));
  const selected = loaded.requests;
  // "# @disabled" requests are never sent, even when named; when none is left, one line says so.
  if (selected.length === 0 && loaded.disabled.length > 0) {
    io.stderr.write(`${safeLine(allDisabledLine(file, loaded.disabled.length))}\n`);
    return EXIT.ok;
  }
  for (const r of loaded.disabled) io.stderr.write(`${safeLine(`${r.name ?? `request ${r.index + 1}`}: skipped (# @disabled)`)}\n`);
  const recorder = await recorderFor(values.report, [file]);
  const reported: ReportTest[] = [];
  const chosen = await chooseConnection(values, io.env);
  // What the run refuses and asks, decided once (core/run/preflight.ts): nothing is sent before.
  const { preflight, answers } = await cliEdges([loaded], cliConnections(chosen, values, io), values, io);
  if (selected.length === 0) throw new UsageError(`${file} holds no request. Write one as "GET {{baseUrl}}/v1/…" (see "bizdata send --help").`);
  const { secrets } = preflight;
  const clients = await requestClients([{ file: loaded.parsed, path: file, requests: selected }], chosen, values, io, refuseRunProblems, secrets, recorder?.observe);
  const { main, setupOf } = clients;
  const { requestTimeoutMs } = main;
  const stop = requestFileStop(requestTimeoutMs, io);
  let sent = 0;
  let declined = 0;
  let failed: number | undefined;
  const redact = (text: string): string => secrets.redact(text);
  try {
    const on = (e: RunEvent): void => {
      if (e.kind === 'skipped' && e.why === 'declined') {
        io.stderr.write(`${safeLine(`${requestName(e.request)}: not sent (declined)`)}\n`);
        declined++;
      }
      if (e.kind !== 'judged') return;
      const { outcome, step } = e;
      // A request that could not be sent at its turn (a chained value its predecessor did not give) refuses the rest of the file.
      if (!step) throw new UsageError(`${file}:${outcome.line + 1}: ${outcome.message ?? 'this request cannot be sent.'}`);
      const { request: r, sent: request, result } = step;
      sent++;
      const { codes, connection } = setupOf(r);
      if (recorder) reported.push(sentRequest(file, r, request, result, connection?.name));
      const label = `${connection ? `[${connection.name}] ` : ''}${requestName(r)}: ${request.method} ${outcome.url ?? redact(request.url)}`;
      if (!result.ok && outcome.verdict !== 'passed') {
        io.stderr.write(`${safeLine(label)}\n`);
        failed = printFailure(result, io, redact, codes);
        return;
      }
      io.stderr.write(`${safeLine(label)} -> ${result.status ?? ''} (${Math.round(result.durationMs)} ms)\n`);
      // The answer as sent, except characters that could drive the terminal and any secret of the run it echoes.
      const text = result.ok ? result.text : undefined;
      if (text !== undefined) io.stdout.write(safeText(redact(text.endsWith('\n') ? text : `${text}\n`)));
      else if (result.body !== undefined) io.stdout.write(redact(`${safeJson(result.body, 2)}\n`));
      if (outcome.verdict !== 'passed') {
        for (const line of requestLines(file, { outcome, connection: connection?.name ?? 'default', url: outcome.url })) io.stderr.write(`${safeLine(line)}\n`);
        failed = EXIT.other;
      }
    };
    await runRequests({ file: loaded.parsed, requests: selected, until: 'first-failure' }, cliRunHost({ clients, file: loaded, answers, secrets, values, stop, on }));
  } finally {
    await clients.close();
    stop.dispose();
  }
  if (recorder && values.report !== undefined) {
    const connections = [...new Set(reported.map((t) => t.connection ?? 'default'))];
    const run = { title: `bizdata send ${file}`, kind: 'send', startedAt: recorder.startedAt, durationMs: Date.now() - recorder.startedAt, connections, wire: recorder.wire, limit: runLimit(main.client.limiterState()), tests: reported } as const;
    await writeRunReport(values.report, run, redact);
  }
  if (failed !== undefined) return failed;
  if (!stop.received || sent + declined === selected.length) return EXIT.ok;
  io.stderr.write(`bizdata: stopped by ${stop.received} after ${sent} of ${selected.length} requests; the others were not sent.\n`);
  return endBySignal(stop.received, io);
}

function select(requests: readonly ParsedRequest[], names: readonly string[], file: string): readonly ParsedRequest[] {
  if (names.length === 0) return [...requests];
  const missing = names.filter((n) => !requests.some((r) => r.name === n));
  if (missing.length > 0) {
    const known = requests.flatMap((r) => (r.name ? [r.name] : []));
    throw new UsageError(`No request named ${missing.map((n) => `"${n}"`).join(', ')} in ${file}${known.length > 0 ? `; its named requests are ${known.join(', ')}` : ''}.`);
  }
  return requests.filter((r) => r.name !== undefined && names.includes(r.name));
}

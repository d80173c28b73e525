// A run's edges, decided once for every host (`bizdata send`, `test` and their data runs, the editor's
// Send, the Test Explorer and Run with Data): everything that is known before the first request is
// sent. Hosts only show what it says, ask what it says to ask, in its order, and pass the answers back.
//
//  1. preflight(plan): what the run refuses (the folder's Workspace Trust, every error of the request
//     lines that run and of the file's variables, `# @connection` names that are none, references to
//     nothing, a data file that cannot be read or whose rows lack a value, each at FILE:LINE or
//     ROWS:LINE, a request that cannot be sent (checked with stand-in values for a row's and a prompt's),
//     the connections the run reaches and which are production, the questions to ask (production, then
//     notes, then prompts), and the run's one registry of secrets (every credential of a connection it
//     reaches).
//  2. answered(preflight, answers): the checks that need the answers (a prompt's answer that makes a
//     request unsendable), and the secret prompt answers added to the registry.
// Nothing is sent, not even a sign-in, until both have passed. A row's own values are checked when the
// row runs: a row that cannot be sent is that row's failure (dataRows.ts), never the run's.
import { checkData } from '../data/rowCheck';
import type { DataSource } from '../data/dataSource';
import type { DataProblem } from '../data/rows';
import type { Credentials } from '../model';
import { SecretRegistry } from '../redact';
import { connectionOfRequest, type ConnectionChoice } from '../requests/requestConnections';
import type { ParsedRequest, ParsedRequestFile } from '../requests/requestFile';
import type { PromptSetting } from '../requests/requestSettings';
import { connectionVariables, dataVariables } from '../requests/requestVariables';
import { requestFileProblems, STAND_IN } from './fileChecks';
import { prepare, type FileInputs } from './prepare';

export interface PreflightFile {
  /** The file as messages name it (as typed, or relative to the workspace). */
  readonly path: string;
  readonly text: string;
  readonly parsed: ParsedRequestFile;
  /** The requests that run, in file order, `# @disabled` ones left out. */
  readonly requests: readonly ParsedRequest[];
  /** What its requests read besides the file (the `.env`, allowed variables, body files); the prompts are answered later. */
  readonly inputs: Omit<FileInputs, 'prompts' | 'row'>;
  /** The data file that makes it data-driven (run once per row): read through once here, before anything is sent. */
  readonly data?: DataSource;
}

/** The connections as the host has them. */
export interface RunConnections extends ConnectionChoice {
  /** Whether a connection is marked production: a run that reaches one asks first. */
  isProduction(name: string): boolean;
  /** The credentials a connection would send, for the run's registry of secrets (none known: empty). */
  credentials(name: string): Promise<readonly Credentials[]>;
}

export interface PreflightPlan {
  readonly files: readonly PreflightFile[];
  readonly connections: RunConnections;
  /** The editor's Workspace Trust: false refuses the run. */
  readonly trusted?: boolean;
}

/** What a run refuses, at a 1-based line of a file (the request file's, or the data file's: ROWS:LINE). */
export interface Refusal {
  readonly file: string;
  readonly line?: number;
  readonly message: string;
}

export interface NoteQuestion {
  readonly file: PreflightFile;
  readonly request: ParsedRequest;
  /** The note's text ('' when it gives none). */
  readonly note: string;
  /** Its file is data-driven: the answer is for every row. */
  readonly perRow: boolean;
}

export interface PromptQuestion {
  readonly file: PreflightFile;
  readonly request: ParsedRequest;
  readonly prompt: PromptSetting;
}

export interface Preflight {
  readonly plan: PreflightPlan;
  /** Nothing is sent when any; the first few of a data file's rows, and `more` counts the rest. */
  readonly refusals: readonly Refusal[];
  readonly more: number;
  /** The connections the run's requests go through, each once. */
  readonly reached: readonly string[];
  /** Asked first: the production connections among them (one question for all). */
  readonly production: readonly string[];
  /** Asked next: the requests marked `# @note`, once for the run (a data run asks once, for every row). */
  readonly notes: readonly NoteQuestion[];
  /** Asked last: each `# @prompt`, once per file and name. */
  readonly prompts: readonly PromptQuestion[];
  /** Each data-driven file's data (by the file's path): its columns and how many rows it has. */
  readonly data: ReadonlyMap<string, DataShape>;
  /** The run's one registry of secrets: every credential of a connection it reaches; answered() adds the secret prompts'. */
  readonly secrets: SecretRegistry;
}

/** What a data file's check found: its columns and its rows counted. */
export interface DataShape {
  readonly columns: readonly string[];
  readonly rows: number;
}

export const RESTRICTED_MODE =
  'This folder is in Restricted Mode, so request files send nothing with your token. Trust the folder ("Workspaces: Manage Workspace Trust") if you trust its request files, then run again.';

/** Stage 1: see the file's first comment. */
export async function preflight(plan: PreflightPlan): Promise<Preflight> {
  const secrets = new SecretRegistry();
  const data = new Map<string, DataShape>();
  const base = { plan, more: 0, reached: [], production: [], notes: [], prompts: [], data, secrets };
  if (plan.trusted === false) return { ...base, refusals: [{ file: plan.files[0]?.path ?? '', message: RESTRICTED_MODE }] };
  const { connections } = plan;
  const refusals: Refusal[] = [];
  let more = 0;
  /** Files whose data file was refused: their rows' values are unknown, so their requests are not checked further. */
  const unread = new Set<PreflightFile>();
  for (const f of plan.files) {
    if (f.data) {
      const checked = await checkData(f.data, dataVariables(f.text, f.parsed, mainVariables(f, connections)), f.path);
      if (!checked.ok) {
        refusals.push(...checked.problems.map(rowRefusal));
        more += checked.more;
        unread.add(f);
        continue;
      }
      data.set(f.path, { columns: checked.columns, rows: checked.rows });
    }
    const problems = requestFileProblems(f.text, connections, f.parsed, data.get(f.path)?.columns);
    refusals.push(...problems.filter((p) => p.severity === 'error' && runs(f, p.span.line)).map((p) => at(f, p.span.line, p.message)));
  }
  // What a request cannot send, at a line that has no refusal yet (its own errors are listed already): every refusal at once.
  const place = (r: Refusal): string => `${r.file}:${r.line ?? 0}`;
  const listed = new Set(refusals.map(place));
  const checkable = { ...plan, files: plan.files.filter((f) => !unread.has(f)) };
  for (const r of await unsendable(checkable, standIns(data))) if (!listed.has(place(r))) refusals.push(r);
  refusals.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : 0));
  const reached = [...new Set(plan.files.flatMap((f) => f.requests.flatMap((r) => reachedBy(f, r, connections))))];
  for (const name of reached) for (const c of await connections.credentials(name)) secrets.addCredentials(c);
  const seen = new Set<string>();
  const prompts = plan.files.flatMap((file) =>
    file.requests.flatMap((request) => request.settings.prompts.flatMap((prompt) => (seen.has(`${file.path}\n${prompt.name}`) ? [] : (seen.add(`${file.path}\n${prompt.name}`), [{ file, request, prompt }])))),
  );
  const notes = plan.files.flatMap((file) => file.requests.flatMap((request) => (request.settings.note !== undefined ? [{ file, request, note: request.settings.note, perRow: file.data !== undefined }] : [])));
  return { ...base, refusals, more, reached, production: reached.filter((n) => connections.isProduction(n)), notes, prompts };
}

/** Stage 2: the answers to the prompts, by file (as named) and prompt name. Refusals are empty when the run may start. */
export async function answered(p: Preflight, prompts: ReadonlyMap<string, ReadonlyMap<string, string>>): Promise<readonly Refusal[]> {
  for (const q of p.prompts) if (q.prompt.secret) p.secrets.add(prompts.get(q.file.path)?.get(q.prompt.name));
  if (p.prompts.length === 0) return [];
  return unsendable(p.plan, (f) => ({ ...standIns(p.data)(f), prompts: prompts.get(f.path) ?? new Map() }));
}

/** A problem as the command line and CI print it: `FILE:LINE: message`. */
export function refusalText(r: Refusal): string {
  return `${r.file}${r.line !== undefined ? `:${r.line}` : ''}: ${r.message}`;
}

const at = (f: PreflightFile, line: number, message: string): Refusal => ({ file: f.path, line: line + 1, message });
const rowRefusal = (p: DataProblem): Refusal => ({ file: p.file, ...(p.line !== undefined ? { line: p.line } : {}), message: p.message });

/**
 * Whether a 0-based line belongs to what runs: every line when the whole file runs; otherwise (a
 * request chosen by name, the editor's Send) a running request's own lines, a file variable's, or the file's head.
 */
function runs(f: PreflightFile, line: number): boolean {
  if (f.requests.length === f.parsed.requests.filter((r) => !r.settings.disabled).length) return true;
  if (f.parsed.variables.some((v) => v.span.line === line)) return true;
  const first = f.parsed.requests[0]?.startLine ?? Number.POSITIVE_INFINITY;
  if (line < first) return true;
  return f.requests.some((r) => line >= r.startLine && line <= r.endLine);
}

/** The variables of the connection the file's requests go to by default. */
function mainVariables(f: PreflightFile, c: ConnectionChoice): Record<string, string> {
  const endpoints = c.endpoints(f.parsed.connection?.name || c.active) ?? c.endpoints(c.active);
  return endpoints ? connectionVariables(endpoints) : {};
}

function reachedBy(f: PreflightFile, r: ParsedRequest, c: ConnectionChoice): string[] {
  const picked = connectionOfRequest(f.parsed, r, c);
  return picked.ok ? [picked.name] : [];
}

/** Stand-ins for a row's values (a data-driven file's) and the prompts' answers. */
function standIns(data: ReadonlyMap<string, DataShape>): (f: PreflightFile) => Pick<FileInputs, 'prompts' | 'row'> {
  return (f) => {
    const columns = data.get(f.path)?.columns;
    return { prompts: new Map(f.requests.flatMap((r) => r.settings.prompts.map((p) => [p.name, STAND_IN] as const))), ...(columns ? { row: new Map(columns.map((c) => [c, STAND_IN])) } : {}) };
  };
}

/**
 * What stops a request, found before the first request is sent: its connection, where its token
 * would go, its body and body files, what the client would refuse to send. Only what needs an
 * earlier request's answer (a chained value, a URL built from one) waits for its turn.
 */
async function unsendable(plan: PreflightPlan, values: (f: PreflightFile) => Pick<FileInputs, 'prompts' | 'row'>): Promise<Refusal[]> {
  const out: Refusal[] = [];
  for (const f of plan.files) {
    for (const r of f.requests) {
      const picked = connectionOfRequest(f.parsed, r, plan.connections);
      if (!picked.ok) {
        out.push(at(f, picked.line, picked.message));
        continue;
      }
      const prepared = await prepare(f.parsed, r, picked.endpoints, new Map(), { ...f.inputs, ...values(f) });
      // A value missing until an earlier answer comes waits for its turn; the request's own errors are the file's.
      if (!prepared.ok && !prepared.waiting && prepared.reason !== 'problem') out.push(at(f, prepared.line, prepared.message));
    }
  }
  return out;
}

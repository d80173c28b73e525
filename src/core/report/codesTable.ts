// The report's one table of result codes (pure): each code once, with the calls of this run that
// answered it and, for a job, the rows whose latest result carries it; its words once, in the
// catalog's or the service's terms as the diagnostics write them (codes/recognise.ts `explainLine`).
import { explainLine } from '../codes/recognise';
import type { ReportRow } from './jobRows';
import type { SentEvent } from './timeline';

export interface CodeCount {
  readonly code: string;
  /** Data calls of this run that answered with it (sign-ins aside). */
  readonly calls: number;
  /** Rows of the job whose latest result carries it; undefined for a run without rows. */
  readonly rows?: number;
  /** What it means, once; undefined for a status without a code. */
  readonly words?: string;
}

/** A call's or a row's key in the table: its code, else its HTTP status, else what became of it. */
function keyOf(code: string | undefined, status: number | undefined, otherwise: string): string {
  return code ?? (status !== undefined ? `HTTP ${status}` : otherwise);
}

/** Codes by calls (then rows), most first. `rows` only for a job's report. */
export function codesTable(sent: readonly SentEvent[], rows: readonly ReportRow[] | undefined, redact: (text: string) => string): CodeCount[] {
  const table = new Map<string, { calls: number; rows: number; words?: string }>();
  const entry = (key: string): { calls: number; rows: number; words?: string } => {
    const e = table.get(key) ?? { calls: 0, rows: 0 };
    table.set(key, e);
    return e;
  };
  for (const e of sent) {
    if (e.signIn) continue;
    const row = entry(keyOf(e.code?.code, e.status, 'no answer'));
    row.calls++;
    row.words ??= e.code ? explainLine(e.code) : e.failed;
  }
  for (const r of rows ?? []) {
    if (r.outcome === 'repeated' || r.outcome === 'unsent') continue;
    const row = entry(keyOf(r.code, r.status, r.outcome === 'failed' ? 'no answer' : 'no code'));
    row.rows++;
    // A row's failure words say what happened to that row; the code's own words come from a call.
    if (r.code === undefined && r.status === undefined) row.words ??= r.text;
  }
  return [...table]
    .map(([code, e]) => ({ code, calls: e.calls, ...(rows ? { rows: e.rows } : {}), ...wordsOf(code, e.words, redact) }))
    .sort((a, b) => b.calls - a.calls || (b.rows ?? 0) - (a.rows ?? 0) || a.code.localeCompare(b.code));
}


/** A code's words; a status without a code says what its class means. */
function wordsOf(key: string, words: string | undefined, redact: (text: string) => string): { words?: string } {
  if (words !== undefined) return { words: redact(words) };
  const status = /^HTTP (\d{3})$/.exec(key)?.[1];
  if (status === undefined) return {};
  return { words: status.startsWith('2') ? 'A success by its status, with no result code in the answer.' : `HTTP ${status} with no result code.` };
}

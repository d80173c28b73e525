// One lookup of the history and one saved query, as globalState keeps them (the answer is a file of
// its own, named by the entry's id): their shapes, how a finished call becomes an entry's answer and
// summary, how a stored record is read back, and the ids and file names that tie them together.
import { randomBytes } from 'node:crypto';
import { BUILT_IN } from '../../core/codes/codes';
import { explainLine, recogniseBody } from '../../core/codes/recognise';
import type { CallResult, FailureKind, RequestRecord } from '../../core/model';
import { isHistoryQuery, isObject, queryKey, type HistoryQuery } from './historyQueries';

/** How an entry's answer reads: JSON (the body, pretty-printed) or text as sent; and its length. */
export interface AnswerInfo {
  readonly form: 'json' | 'text';
  readonly chars: number;
}

/** One lookup as globalState keeps it: everything but the answer, which is a file of its own. */
export interface LookupEntry {
  readonly id: string;
  readonly query: HistoryQuery;
  /** The connection it was sent with: a re-run goes there again. Absent in entries of earlier versions. */
  readonly connection?: string;
  /** Epoch milliseconds when the lookup finished. */
  readonly at: number;
  readonly ok: boolean;
  readonly status?: number;
  /** Result or error code (CM000, SC001, 00040 ...), when the response carried one. */
  readonly code?: string;
  readonly kind?: FailureKind;
  /** For failures: what went wrong (the text responseFailure chose), the catalog's meaning, and what to do. */
  readonly text?: string;
  readonly meaning?: string;
  readonly advice?: string;
  /** For a success with a code: the code and what the answer said of it (the catalog's text where it said nothing). */
  readonly said?: string;
  readonly durationMs: number;
  readonly request?: RequestRecord;
  /** The answer kept in the entry's file; absent when there was none to keep. */
  readonly answer?: AnswerInfo;
}

/** An entry's answer as read back: its text, none kept, or a file that is gone or cannot be read. */
export type StoredAnswer = { readonly state: 'stored'; readonly text: string } | { readonly state: 'none' } | { readonly state: 'missing' };

export interface SavedQuery {
  readonly id: string;
  readonly query: HistoryQuery;
  /** The connection of the lookup it was saved from: running it goes there. */
  readonly connection?: string;
  /** Epoch milliseconds when it was saved: the Saved group's order. */
  readonly at?: number;
}

/** Elements of the Lookups view: commands run from its items receive these. */
export type LookupNode =
  | { readonly type: 'group'; readonly group: 'saved' | 'history' }
  | { readonly type: 'history'; readonly entry: LookupEntry }
  | { readonly type: 'saved'; readonly saved: SavedQuery };

/** What the result document, the Lookups view and Save Response say of an answer whose file is gone. */
export const ANSWER_NOT_STORED =
  "This lookup's answer is no longer stored: its file in the extension's storage folder is missing or cannot be read. Re-run the lookup to get it again.";

/**
 * A finished call as the history keeps it: its summary, and its query and request with every secret
 * `redact` knows replaced (an answer typed at a secret-looking `# @prompt` is not kept either).
 */
export function entryOf(
  query: HistoryQuery,
  result: CallResult,
  kept: { readonly at: number; readonly connection?: string; readonly answer?: AnswerInfo },
  redact: (text: string) => string,
): LookupEntry {
  const redactedJson = <T>(value: T): T => JSON.parse(redact(JSON.stringify(value))) as T;
  const summary = result.ok
    ? { status: result.status, code: result.code, said: redact(successLine(result.body, result.code, result.status) ?? '') || undefined }
    : { status: result.status, code: result.code, kind: result.kind, text: redact(result.text), meaning: result.meaning, advice: redact(result.advice) };
  return definedOnly({
    id: newId(kept.at),
    query: redactedJson(query),
    connection: kept.connection,
    at: kept.at,
    ok: result.ok,
    ...summary,
    durationMs: result.durationMs,
    request: result.request && redactedJson(result.request),
    answer: kept.answer,
  });
}

/** The answer as the result document shows it: the text as sent, or the body pretty-printed. */
export function answerFrom(query: HistoryQuery, result: CallResult, textIsJson: boolean): { readonly form: AnswerInfo['form']; readonly text: string } | undefined {
  if (result.ok && result.text !== undefined) return { form: textIsJson ? 'json' : 'text', text: result.text };
  if (result.body !== undefined) return { form: 'json', text: prettyJson(result.body) };
  // A request's empty answer is an empty text, not a missing body.
  return result.ok && query.kind === 'request' ? { form: 'text', text: '' } : undefined;
}

export function prettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The entry's file in the storage folder: its id, and .json or .txt as it reads. */
export function fileName(entry: Pick<LookupEntry, 'id' | 'answer'>): string {
  return `${entry.id}${entry.answer?.form === 'text' ? '.txt' : '.json'}`;
}

/** Unique across windows (two may record a lookup in the same millisecond); starts with the time. */
export function newId(at: number): string {
  return `${Math.max(0, Math.trunc(at)).toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** When an id was made (its leading time); ids of another form count as new, so they are kept. */
export function createdAt(id: string): number {
  const match = /^([0-9a-z]+)-[0-9a-f]{8}$/.exec(id);
  return match ? parseInt(match[1], 36) : Number.POSITIVE_INFINITY;
}

/** Without the fields that are undefined: the entry in memory is the one a new start reads back. */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A record of globalState as an entry, or undefined when it is not one (another version, damage). */
export function asEntry(value: unknown): LookupEntry | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.at !== 'number' || typeof value.ok !== 'boolean' || !isHistoryQuery(value.query)) return undefined;
  return { ...value, durationMs: typeof value.durationMs === 'number' ? value.durationMs : 0 } as LookupEntry;
}

export function asSaved(value: unknown): SavedQuery | undefined {
  return isObject(value) && typeof value.id === 'string' && isHistoryQuery(value.query) ? (value as unknown as SavedQuery) : undefined;
}

/** One string per saved query: the same query on two connections is kept twice. */
export function savedKey(s: Pick<SavedQuery, 'query' | 'connection'>): string {
  return JSON.stringify([queryKey(s.query), s.connection ?? '']);
}

/** A success's code line, kept with the entry because its answer lives in a file read only on demand. */
function successLine(body: unknown, code: string | undefined, status: number): string | undefined {
  const r = code !== undefined ? recogniseBody(body, BUILT_IN, status) : undefined;
  return r ? `${r.code}: ${explainLine(r)}` : undefined;
}

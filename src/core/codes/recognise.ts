// The one recogniser of result codes, pure: which code an answer carries, in every shape the service
// is documented to answer in (shared/docs/real-world-answers.md), and what it means. The client, the
// batch, the command line, the diagnostics and the hovers all read codes through it: from a parsed
// body here (`recogniseBody`), from JSON text with offsets in locateCodes.ts. Both read one object's
// fields into `Fields` and hand them to `recogniseFields`, so the rules are written once.
import type { CodeInfo, Recovery } from './codeInfo';
import { BUILT_IN, isSecurityCode, type CodeBook } from './codes';

/** Where the code sat. */
export type CodeShape =
  /** `{"error": {"errorCode", "errorMessage", "errorDetails"}}` (Interface A, "all other APIs"). */
  | 'errorObject'
  /** `{"result": {"errorCode", "errorMessage", "actionStatus"}}` (the IP product). */
  | 'result'
  /** `{"error": "invalid_request", "error_description": "… ErrorCode: 05007 …"}` (OAuth style). */
  | 'oauth'
  /** `TransactionResult` {ResultID, ResultText, SeverityText, ResultMessage} under any wrapper (Interface B). */
  | 'transactionResult';

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface Recognised {
  readonly code: string;
  readonly shape: CodeShape;
  /** In the catalog: the spec, the service's documentation or the user's codes file. */
  readonly known: boolean;
  readonly info?: CodeInfo;
  /**
   * The text to show first. A code the specification lists keeps the specification's text (its
   * meaning there), unless the service's own words already carry it; any other code shows the
   * service's own words when the answer carries any (what the user can search the service's
   * documentation for and quote to its support), else the catalog's text.
   */
  readonly text: string;
  /**
   * The service's own words to show beside `text`: set only for a code of the specification whose
   * answer says something other than the specification's text ("Unauthorized" for 00040).
   */
  readonly alsoSaid?: string;
  /**
   * What the service itself said (ResultText, errorMessage, error_description), with the
   * ResultDescription(s) of ResultMessage when they add to it; undefined when it said nothing.
   */
  readonly serviceText?: string;
  /** ResultDescription(s) of ResultMessage, joined. */
  readonly description?: string;
  /** The catalog's meaning of a known code. */
  readonly meaning?: string;
  readonly action: string;
  readonly severity: FindingSeverity;
  /** The status the body names (actionStatus), else the HTTP status, else the one the catalog documents. */
  readonly status?: number;
  readonly recovery?: Recovery;
}

/** One object's fields that matter, read from a parsed body or from JSON text alike. */
export interface Fields {
  /** The property name the object sits under in its parent ('error', 'result', 'TransactionResult' ...). */
  readonly holder?: string;
  readonly values: Readonly<Record<string, string | undefined>>;
  readonly descriptions: readonly string[];
}

/** Property names whose string (or number) values the recogniser reads. */
export const READ_PROPERTIES: ReadonlySet<string> = new Set([
  'errorCode',
  'code',
  'errorMessage',
  'message',
  'actionStatus',
  'error',
  'error_description',
  'ResultID',
  'ResultText',
  'SeverityText',
]);

/** The property whose value is the code, for each shape (the OAuth shape may hold it inside its description). */
export const CODE_PROPERTY: Readonly<Record<CodeShape, string>> = {
  errorObject: 'errorCode',
  result: 'errorCode',
  oauth: 'error',
  transactionResult: 'ResultID',
};

const CODE_IN_TEXT = /\bError\s*Code\s*[:=]?\s*"?([A-Za-z]{0,3}\d{3,6})\b/i;

/** Which shape an object is, and where its code is; undefined when it holds none. */
export function shapeOf(f: Fields): { shape: CodeShape; code: string; property: string; inText?: boolean } | undefined {
  const v = f.values;
  if (f.holder === 'TransactionResult' && v.ResultID) return { shape: 'transactionResult', code: v.ResultID, property: 'ResultID' };
  if (f.holder === 'error' && (v.errorCode || v.code)) return { shape: 'errorObject', code: (v.errorCode ?? v.code) as string, property: v.errorCode ? 'errorCode' : 'code' };
  if (f.holder === 'result' && v.errorCode) return { shape: 'result', code: v.errorCode, property: 'errorCode' };
  // A nested object with a bare "error" string is too common in other JSON to be the OAuth shape by itself.
  if (v.error && (v.error_description !== undefined || f.holder === undefined)) {
    const inText = v.error_description !== undefined ? CODE_IN_TEXT.exec(v.error_description) : null;
    if (inText) return { shape: 'oauth', code: inText[1], property: 'error_description', inText: true };
    return { shape: 'oauth', code: v.error, property: 'error' };
  }
  return undefined;
}

/** The code an object holds and what it means, or undefined. `httpStatus` when the body came over HTTP. */
export function recogniseFields(f: Fields, book: CodeBook = BUILT_IN, httpStatus?: number): Recognised | undefined {
  const found = shapeOf(f);
  if (!found) return undefined;
  const v = f.values;
  const info = book.describe(found.code);
  const said = found.shape === 'transactionResult' ? v.ResultText : found.shape === 'oauth' ? v.error_description : (v.errorMessage ?? v.message);
  const description = f.descriptions.length > 0 ? f.descriptions.join(' ') : undefined;
  const actionStatus = v.actionStatus !== undefined && /^\d{3}$/.test(v.actionStatus.trim()) ? Number(v.actionStatus) : undefined;
  const status = actionStatus ?? httpStatus ?? info?.status;
  const own = serviceWords(nonEmpty(said), nonEmpty(description));
  // Plain literals, no spread: a large file has tens of thousands of codes, and spreading is slower.
  if (info) {
    const severity = info.severity === 'success' ? 'info' : info.severity;
    const { text, alsoSaid } = textsOf(info, own);
    return { code: found.code, shape: found.shape, serviceText: own, alsoSaid, description, status, known: true, info, text, meaning: info.meaning, action: info.action, severity, recovery: info.recovery };
  }
  const text = own ?? `The service answered with code ${found.code} and no text.`;
  const severity = unknownSeverity(found.shape, found.code, v.SeverityText, status);
  return { code: found.code, shape: found.shape, serviceText: own, description, status, known: false, text, action: adviceForStatus(status), severity };
}

/** The code of a parsed response body: the error shapes at its top, TransactionResult at the top or under one wrapper. */
export function recogniseBody(json: unknown, book: CodeBook = BUILT_IN, httpStatus?: number): Recognised | undefined {
  if (!isObj(json)) return undefined;
  const candidates: Fields[] = [];
  if (isObj(json.error)) candidates.push(fieldsOf(json.error, 'error'));
  if (isObj(json.result)) candidates.push(fieldsOf(json.result, 'result'));
  if (typeof json.error === 'string') candidates.push(fieldsOf(json, undefined));
  const tr = findTransactionParts(json).result;
  if (tr) candidates.push(fieldsOf(tr, 'TransactionResult'));
  for (const c of candidates) {
    const r = recogniseFields(c, book, httpStatus);
    if (r) return r;
  }
  return undefined;
}

/**
 * What a known code's answer shows first, and the service's words to show beside it. The
 * specification's codes keep its text, which is their meaning there: an answer saying "Unauthorized"
 * for 00040 still reads "The access token in use has expired.", with "Unauthorized" beside it. Words
 * that already carry the specification's text are shown alone. Other codes: the service's own
 * words, else the catalog's text.
 */
export function textsOf(info: CodeInfo, own: string | undefined): { text: string; alsoSaid?: string } {
  if (own === undefined) return { text: info.text };
  if (info.source !== 'spec') return { text: own };
  return comparable(own).includes(comparable(info.text)) ? { text: own } : { text: info.text, alsoSaid: own };
}

/** A code's text as one line: `text`, then the service's own words beside it when they differ. */
export function shownText(r: Pick<Recognised, 'text' | 'alsoSaid'>): string {
  return r.alsoSaid === undefined ? r.text : `${asSentence(r.text)} The service said: "${r.alsoSaid}"`;
}

/**
 * One line for people: the text (a spec code's text with the service's words beside it, else the
 * service's own words first), then the catalog's meaning of a known code or "not in the catalog",
 * then the action.
 */
export function explainLine(r: Pick<Recognised, 'code' | 'known' | 'text' | 'alsoSaid' | 'meaning' | 'action'>): string {
  if (!r.known) return `${r.text} (${r.code} is not in the catalog; the text is the service's own) — ${r.action}`;
  // Each thing said once: a service's own text may already carry the catalog's meaning or advice.
  const shown = shownText(r);
  const said = (words: string): boolean => comparable(shown).includes(comparable(words));
  const meaning = r.meaning !== undefined && r.meaning !== r.text && !said(r.meaning) ? asSentence(r.meaning) : '';
  const rest = [meaning, said(r.action) ? '' : r.action].filter((w) => w !== '').join(' ');
  return rest === '' ? shown : `${shown} — ${rest}`;
}

/** Text compared for sense, not form: case, spacing and a closing full stop aside. */
function comparable(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!]+$/, '');
}

/** The service's text with its descriptions (ResultMessage) when they say more than the text itself. */
export function serviceWords(text: string | undefined, description: string | undefined): string | undefined {
  if (text === undefined || description === undefined || text.includes(description)) return text ?? description;
  return `${asSentence(text)} ${description}`;
}

/** Text that ends as a sentence, so that another can follow it on the same line. */
export function asSentence(text: string): string {
  const t = text.trimEnd();
  return /[.!?:;]$/.test(t) ? t : `${t}.`;
}

/** Advice for a code the catalog does not name, from the status it came with. */
export function adviceForStatus(status: number | undefined): string {
  if (status === 401 || status === 403) return 'Check the credentials and sign in again; if it recurs, contact support.';
  if (status === 404) return 'Check the query values, the service addresses and the version segments.';
  if (status === 429) return 'Wait a moment and try again.';
  if (status !== undefined && status >= 500) return 'The service had a problem; try again later.';
  if (status !== undefined && status < 400) return 'Read the service\'s text; no action may be needed.';
  return "Read the service's text beside the code; if the request needs correcting it says which value.";
}

function unknownSeverity(shape: CodeShape, code: string, severityText: string | undefined, status: number | undefined): FindingSeverity {
  const s = severityText?.trim().toLowerCase();
  if (s) {
    if (/^(error|fatal|critical|severe)/.test(s)) return 'error';
    if (s.startsWith('warn')) return 'warning';
    if (s.startsWith('info') || s === 'success') return 'info';
  }
  if (status !== undefined) return status >= 400 ? 'error' : 'info';
  if (shape !== 'transactionResult' || isSecurityCode(code)) return 'error';
  return 'warning';
}

type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function scalar(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
}

function nonEmpty(s: string | undefined): string | undefined {
  return s !== undefined && s.trim() !== '' ? s : undefined;
}

function fieldsOf(o: Obj, holder: string | undefined): Fields {
  const values: Record<string, string | undefined> = {};
  // Codes and texts are strings; only actionStatus may be written as a number.
  for (const k of READ_PROPERTIES) if (k in o) values[k] = k === 'actionStatus' ? scalar(o[k]) : typeof o[k] === 'string' ? o[k] : undefined;
  const messages = Array.isArray(o.ResultMessage) ? o.ResultMessage : [o.ResultMessage];
  const descriptions = messages.filter(isObj).map((m) => scalar(m.ResultDescription)).filter((d): d is string => d !== undefined);
  return { holder, values, descriptions };
}

/** TransactionResult and TransactionDetail at the top level (authentication) or inside one wrapper (MatchResponse, ...). */
export function findTransactionParts(json: unknown): { result?: Obj; detail?: Obj } {
  if (!isObj(json)) return {};
  const parts = (o: Obj) => ({ result: isObj(o.TransactionResult) ? o.TransactionResult : undefined, detail: isObj(o.TransactionDetail) ? o.TransactionDetail : undefined });
  if (isObj(json.TransactionResult) || isObj(json.TransactionDetail)) return parts(json);
  // The wrapper may carry attributes first ("@ServiceVersionNumber"): look at every object value.
  for (const v of Object.values(json)) {
    if (isObj(v) && (isObj(v.TransactionResult) || isObj(v.TransactionDetail))) return parts(v);
  }
  return {};
}

// Saved queries and recent lookup history: plain data and change events, no rendering.
// Persisted in globalState (queries and responses are not secret; requests carry placeholders only).
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import type { CallResult, FailureKind, LookupQuery, OperationRequest, RequestRecord } from '../../core/model';
import { jsonLongerThan } from './jsonSize';

/**
 * A request of a request file as it was sent: variables replaced, and never a token or a credential
 * (the client adds Authorization and Origin itself; the file's own such headers are dropped).
 */
export interface RequestQuery {
  readonly kind: 'request';
  readonly request: OperationRequest;
  /** The request's `@name` (or `###` title) in its file. */
  readonly name?: string;
}

/** What the history and the Saved group hold: a lookup of one of the two samples, or a request file's request. */
export type HistoryQuery = LookupQuery | RequestQuery;

export interface LookupEntry {
  readonly id: string;
  readonly query: HistoryQuery;
  /** Epoch milliseconds when the lookup finished. */
  readonly at: number;
  readonly ok: boolean;
  readonly status?: number;
  /** Result or error code (CM000, SC001, 00040 ...), when the response carried one. */
  readonly code?: string;
  readonly kind?: FailureKind;
  /** For failures: what went wrong (the service's own words first), the catalog's meaning, and what to do. */
  readonly text?: string;
  readonly meaning?: string;
  readonly advice?: string;
  readonly durationMs: number;
  readonly request?: RequestRecord;
  /** Parsed response body; absent when there was none or it was too large to keep after a restart. */
  readonly body?: unknown;
  /** The answer as text (requests of request files only): as sent, or JSON pretty-printed off the thread. */
  readonly responseText?: string;
  /** `responseText` is JSON (an answer too large to parse on the extension host's thread). */
  readonly responseIsJson?: boolean;
}

export interface SavedQuery {
  readonly id: string;
  readonly query: HistoryQuery;
}

/** Elements of the Lookups view: commands run from its items receive these. */
export type LookupNode =
  | { readonly type: 'group'; readonly group: 'saved' | 'history' }
  | { readonly type: 'history'; readonly entry: LookupEntry }
  | { readonly type: 'saved'; readonly saved: SavedQuery };

interface Persisted {
  readonly history: readonly LookupEntry[];
  readonly saved: readonly SavedQuery[];
}

const STATE_KEY = 'bizdata.lookups';
const HISTORY_LIMIT = 50;
/** Bodies larger than this are kept for this session only. */
const PERSISTED_BODY_LIMIT = 64 * 1024;

export class LookupModel implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private history: LookupEntry[];
  private saved: SavedQuery[];
  private counter = 0;
  /** Each entry as globalState keeps it, worked out once: a large answer stays for this session only. */
  private readonly stored = new WeakMap<LookupEntry, LookupEntry>();

  constructor(private readonly state: vscode.Memento) {
    const stored = state.get<Persisted>(STATE_KEY);
    this.history = [...(stored?.history ?? [])];
    this.saved = [...(stored?.saved ?? [])];
  }

  get entries(): readonly LookupEntry[] {
    return this.history;
  }

  get savedQueries(): readonly SavedQuery[] {
    return this.saved;
  }

  get isEmpty(): boolean {
    return this.history.length === 0 && this.saved.length === 0;
  }

  find(id: string): LookupEntry | undefined {
    return this.history.find((e) => e.id === id);
  }

  /** Records a finished lookup (newest first) and returns its entry. */
  add(query: HistoryQuery, result: CallResult, options: { readonly at?: number; readonly textIsJson?: boolean } = {}): LookupEntry {
    const at = options.at ?? Date.now();
    const responseIsJson = options.textIsJson === true ? true : undefined;
    const entry: LookupEntry = result.ok
      ? { id: this.newId(at), query, at, ok: true, status: result.status, code: result.code, durationMs: result.durationMs, request: result.request, body: result.body, responseText: responseTextOf(query, result), responseIsJson }
      : {
          id: this.newId(at),
          query,
          at,
          ok: false,
          status: result.status,
          code: result.code,
          kind: result.kind,
          text: result.text,
          meaning: result.meaning,
          advice: result.advice,
          durationMs: result.durationMs,
          request: result.request,
          body: result.body,
        };
    this.history = [entry, ...this.history].slice(0, HISTORY_LIMIT);
    this.persist();
    return entry;
  }

  /** Keeps the entry's query in the Saved group (once). */
  save(query: HistoryQuery): SavedQuery {
    const existing = this.saved.find((s) => sameQuery(s.query, query));
    if (existing) return existing;
    const saved: SavedQuery = { id: this.newId(Date.now()), query };
    this.saved = [...this.saved, saved];
    this.persist();
    return saved;
  }

  delete(id: string): void {
    const before = this.history.length + this.saved.length;
    this.history = this.history.filter((e) => e.id !== id);
    this.saved = this.saved.filter((s) => s.id !== id);
    if (this.history.length + this.saved.length !== before) this.persist();
  }

  private newId(at: number): string {
    this.counter += 1;
    return `${at.toString(36)}${this.counter.toString(36)}`;
  }

  private persist(): void {
    const history = this.history.map((e) => this.storedForm(e));
    void this.state.update(STATE_KEY, { history, saved: this.saved } satisfies Persisted);
    this.changed.fire();
  }

  private storedForm(e: LookupEntry): LookupEntry {
    let form = this.stored.get(e);
    if (!form) {
      const tooLarge = (e.responseText?.length ?? 0) > PERSISTED_BODY_LIMIT || (e.body !== undefined && jsonLongerThan(e.body, PERSISTED_BODY_LIMIT));
      form = tooLarge ? { ...e, body: undefined, responseText: undefined } : e;
      this.stored.set(e, form);
    }
    return form;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function sameQuery(a: HistoryQuery, b: HistoryQuery): boolean {
  if (a.kind === 'ip' && b.kind === 'ip') return a.ip === b.ip && (a.view ?? '') === (b.view ?? '');
  if (a.kind === 'request' && b.kind === 'request') return a.name === b.name && JSON.stringify(a.request) === JSON.stringify(b.request);
  if (a.kind === 'org' && b.kind === 'org') {
    return a.country === b.country && a.name === b.name && (a.territory ?? '') === (b.territory ?? '') && (a.matchType ?? '') === (b.matchType ?? '');
  }
  return false;
}

/** Short label for a query: "203.0.113.7", "Acme Ltd (GB)", or a request's name or "GET /v1/…". */
export function queryLabel(q: HistoryQuery): string {
  // Names come from files and other people's batches: shown without control or bidi characters.
  if (q.kind === 'request') return safeLine(q.name ?? `${q.request.method} ${pathOf(q.request.url)}`);
  return safeLine(q.kind === 'ip' ? q.ip : `${q.name} (${q.country}${q.territory ? `, ${q.territory}` : ''})`);
}

/** A request's answer that is not JSON, as text; an empty answer is empty text, not a missing body. */
function responseTextOf(query: HistoryQuery, result: CallResult & { ok: true }): string | undefined {
  if (result.text !== undefined) return result.text;
  return query.kind === 'request' && result.body === undefined ? '' : undefined;
}

/** What kind of call a query is, in words: "IP address", "organization", "request". */
export function queryKindLabel(q: HistoryQuery): string {
  return q.kind === 'ip' ? 'IP address' : q.kind === 'org' ? 'organization' : 'request';
}

/** Path and query of a URL (the host is one of the service's, and long). */
export function pathOf(url: string): string {
  return URL.canParse(url) ? `${new URL(url).pathname}${new URL(url).search}` : url;
}

// Saved queries and recent lookup history: plain data and change events, no rendering.
// Persisted in globalState (queries and responses are not secret; requests carry placeholders only).
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import type { CallResult, FailureKind, LookupQuery, RequestRecord } from '../../core/model';

export interface LookupEntry {
  readonly id: string;
  readonly query: LookupQuery;
  /** Epoch milliseconds when the lookup finished. */
  readonly at: number;
  readonly ok: boolean;
  readonly status?: number;
  /** Result or error code (CM000, SC001, 00040 ...), when the response carried one. */
  readonly code?: string;
  readonly kind?: FailureKind;
  /** For failures: what went wrong and what to do. */
  readonly text?: string;
  readonly advice?: string;
  readonly durationMs: number;
  readonly request?: RequestRecord;
  /** Parsed response body; absent when there was none or it was too large to keep after a restart. */
  readonly body?: unknown;
}

export interface SavedQuery {
  readonly id: string;
  readonly query: LookupQuery;
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
  add(query: LookupQuery, result: CallResult, at = Date.now()): LookupEntry {
    const entry: LookupEntry = result.ok
      ? { id: this.newId(at), query, at, ok: true, status: result.status, code: result.code, durationMs: result.durationMs, request: result.request, body: result.body }
      : {
          id: this.newId(at),
          query,
          at,
          ok: false,
          status: result.status,
          code: result.code,
          kind: result.kind,
          text: result.text,
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
  save(query: LookupQuery): SavedQuery {
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
    const history = this.history.map((e) =>
      e.body !== undefined && JSON.stringify(e.body).length > PERSISTED_BODY_LIMIT ? { ...e, body: undefined } : e,
    );
    void this.state.update(STATE_KEY, { history, saved: this.saved } satisfies Persisted);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function sameQuery(a: LookupQuery, b: LookupQuery): boolean {
  if (a.kind === 'ip' && b.kind === 'ip') return a.ip === b.ip && (a.view ?? '') === (b.view ?? '');
  if (a.kind === 'org' && b.kind === 'org') {
    return a.country === b.country && a.name === b.name && (a.territory ?? '') === (b.territory ?? '') && (a.matchType ?? '') === (b.matchType ?? '');
  }
  return false;
}

/** Short label for a query: "203.0.113.7" or "Acme Ltd (GB)". */
export function queryLabel(q: LookupQuery): string {
  // Names come from files and other people's batches: shown without control or bidi characters.
  return safeLine(q.kind === 'ip' ? q.ip : `${q.name} (${q.country}${q.territory ? `, ${q.territory}` : ''})`);
}

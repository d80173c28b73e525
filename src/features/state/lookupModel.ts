// Saved queries and recent lookup history: plain data and change events, no rendering, no `vscode`
// (the extension hands it a HistoryStorage over globalState and its storage folder: lookupStorage.ts).
// A lookup writes its own record and its own answer file, never the whole history: globalState holds
// one small summary per entry, the answer lives in a file named by the entry's id, written once.
import { randomBytes } from 'node:crypto';
import { BUILT_IN } from '../../core/codes/codes';
import { explainLine, recogniseBody } from '../../core/codes/recognise';
import { safeLine } from '../../core/sanitize';
import type { CallResult, FailureKind, LookupQuery, OperationRequest, RequestRecord } from '../../core/model';
import { lineSlicesOf, nextTurn, SLICE_CHARS } from '../shared/codeScanner';
import { UserError } from '../shared/userError';

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

/**
 * Where the history lives. The extension implements it with globalState (shared by every window of
 * the machine) and files in its globalStorageUri; tests and the benchmark with a Map and a folder.
 */
export interface HistoryStorage {
  /** Keys of the small records. */
  keys(): readonly string[];
  get(key: string): unknown;
  /** Sets one record; undefined removes it. */
  update(key: string, value: unknown): Promise<void>;
  /** Writes a whole file at once (no reader ever sees half of it). */
  writeFile(name: string, data: Uint8Array): Promise<void>;
  readFile(name: string): Promise<Uint8Array>;
  /** Removes a file; one that is not there is no error. */
  deleteFile(name: string): Promise<void>;
  /** Names of the files there (none when the folder does not exist yet). */
  listFiles(): Promise<readonly string[]>;
}

export interface LookupModelOptions {
  /** Replaces every secret the client knows: applied to all that is written. */
  readonly redact?: (text: string) => string;
  /** A write or read that failed; the history goes on without it. */
  readonly onError?: (what: string, err: unknown) => void;
}

/** What the result document, the Lookups view and Save Response say of an answer whose file is gone. */
export const ANSWER_NOT_STORED =
  "This lookup's answer is no longer stored: its file in the extension's storage folder is missing or cannot be read. Re-run the lookup to get it again.";

export const HISTORY_LIMIT = 50;
export const SAVED_LIMIT = 100;
const HISTORY_PREFIX = 'bizdata.history.';
const SAVED_PREFIX = 'bizdata.saved.';
/** A file no entry names is removed once it is this old (younger: another window may be writing its entry). */
const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

export class LookupModel {
  private readonly listeners = new Set<() => void>();
  /** Oldest first (insertion order), so the oldest is dropped in constant time. */
  private history = new Map<string, LookupEntry>();
  private saved = new Map<string, SavedQuery>();
  private savedByQuery = new Map<string, SavedQuery>();
  /** Entries of this window whose record is not stored yet (their file is being written). */
  private readonly unsaved = new Map<string, LookupEntry>();
  /** Answers not in a file: being written, from the old format until migrated, or whose write failed. */
  private readonly texts = new Map<string, string>();
  /** The answer last added, once written: its document opens next, without reading the file back. */
  private recent: { readonly id: string; readonly text: string } | undefined;
  /** Entries whose file was missing or unreadable. */
  private readonly missing = new Set<string>();
  private newestFirst: readonly LookupEntry[] | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly storage: HistoryStorage,
    private readonly options: LookupModelOptions = {},
  ) {
    this.readIndex();
  }

  /** Newest first. */
  get entries(): readonly LookupEntry[] {
    this.newestFirst ??= [...this.history.values()].reverse();
    return this.newestFirst;
  }

  get savedQueries(): readonly SavedQuery[] {
    return [...this.saved.values()];
  }

  get isEmpty(): boolean {
    return this.history.size === 0 && this.saved.size === 0;
  }

  find(id: string): LookupEntry | undefined {
    return this.history.get(id);
  }

  findSaved(id: string): SavedQuery | undefined {
    return this.saved.get(id);
  }

  /** True when the entry's answer file was missing or unreadable: the answer is no longer stored. */
  answerMissing(id: string): boolean {
    return this.missing.has(id);
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Brings a history of the old format (all of it in one globalState value) over, checks which answer
   * files are there, and drops files no entry names. Safe to run in two windows at once.
   */
  load(): Promise<void> {
    this.loading ??= this.loadOnce().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** Reads the records again (another window may have added or deleted some). */
  refresh(): void {
    this.readIndex();
    this.fire();
  }

  /** Records a finished lookup (newest first); resolves with its entry once its file and record are written. */
  async add(query: HistoryQuery, result: CallResult, options: { readonly at?: number; readonly textIsJson?: boolean; readonly connection?: string } = {}): Promise<LookupEntry> {
    const at = options.at ?? Date.now();
    const answer = answerFrom(query, result, options.textIsJson === true);
    const prepared = answer === undefined ? undefined : await this.prepare(answer.text);
    const summary = result.ok
      ? { status: result.status, code: result.code, said: this.redact(successLine(result.body, result.code, result.status) ?? '') || undefined }
      : { status: result.status, code: result.code, kind: result.kind, text: this.redact(result.text), meaning: result.meaning, advice: this.redact(result.advice) };
    const entry: LookupEntry = definedOnly({
      id: newId(at),
      // A secret the client knows (an answer typed at a secret-looking `# @prompt`) is not kept in the request either.
      query: this.redactedJson(query),
      connection: options.connection,
      at,
      ok: result.ok,
      ...summary,
      durationMs: result.durationMs,
      request: result.request && this.redactedJson(result.request),
      answer: answer && prepared ? { form: answer.form, chars: prepared.text.length } : undefined,
    });
    this.history.set(entry.id, entry);
    this.unsaved.set(entry.id, entry);
    if (prepared) this.texts.set(entry.id, prepared.text);
    this.changed();
    await this.store(entry, prepared);
    return entry;
  }

  /** The entry's answer: from its file, or from memory while that is being written. */
  async answerOf(entry: LookupEntry): Promise<StoredAnswer> {
    const text = this.texts.get(entry.id) ?? (this.recent?.id === entry.id ? this.recent.text : undefined);
    if (text !== undefined) return { state: 'stored', text };
    if (!entry.answer) return { state: 'none' };
    try {
      return { state: 'stored', text: await decoded(await this.storage.readFile(fileName(entry))) };
    } catch (err) {
      this.options.onError?.(`the answer of ${queryLabel(entry.query)} could not be read`, err);
      if (this.history.has(entry.id) && !this.missing.has(entry.id)) {
        this.missing.add(entry.id);
        this.fire();
      }
      return { state: 'missing' };
    }
  }

  /** Keeps the query in the Saved group (once). */
  async save(query: HistoryQuery, connection?: string): Promise<SavedQuery> {
    const key = savedKey({ query, connection });
    const existing = this.savedByQuery.get(key);
    if (existing) return existing;
    if (this.saved.size >= SAVED_LIMIT) {
      throw new UserError(`The Saved group holds ${SAVED_LIMIT} queries, the most it keeps. Delete a saved query you no longer need (right-click it, Delete), then save this one.`);
    }
    const at = Date.now();
    const saved: SavedQuery = definedOnly({ id: newId(at), query, connection, at });
    this.saved.set(saved.id, saved);
    this.savedByQuery.set(key, saved);
    this.fire();
    await this.write(SAVED_PREFIX + saved.id, saved);
    return saved;
  }

  /** Removes a history entry (and its file) or a saved query. */
  async delete(id: string): Promise<void> {
    const saved = this.saved.get(id);
    if (saved) {
      this.saved.delete(id);
      this.savedByQuery.delete(savedKey(saved));
      this.fire();
      await this.write(SAVED_PREFIX + id, undefined);
      return;
    }
    const entry = this.history.get(id);
    if (!entry) return;
    this.forget(entry);
    this.changed();
    await this.remove(entry);
  }

  dispose(): void {
    this.listeners.clear();
  }

  private async loadOnce(): Promise<void> {
    // As a start does: answers come from their files.
    this.recent = undefined;
    await this.migrate();
    this.readIndex();
    await this.checkFiles();
    await this.trim();
    this.fire();
  }

  /** The records as stored, with this window's entries whose record is still being written. */
  private readIndex(): void {
    const history: LookupEntry[] = [];
    const saved: SavedQuery[] = [];
    for (const key of this.storage.keys()) {
      if (key.startsWith(HISTORY_PREFIX)) {
        const entry = asEntry(this.storage.get(key));
        if (entry) history.push(entry);
      } else if (key.startsWith(SAVED_PREFIX)) {
        const s = asSaved(this.storage.get(key));
        if (s) saved.push(s);
      }
    }
    // Until the old format is migrated (load), its entries show with their answers from memory.
    const legacy = legacyLookups(this.storage.get(LEGACY_KEY));
    const stored = new Set(history.map((e) => e.id));
    for (const { entry, text } of legacy?.history ?? []) {
      if (stored.has(entry.id)) continue;
      history.push(entry);
      if (text !== undefined) this.texts.set(entry.id, text);
    }
    const savedIds = new Set(saved.map((s) => s.id));
    saved.push(...(legacy?.saved ?? []).filter((s) => !savedIds.has(s.id)));
    for (const entry of this.unsaved.values()) if (!stored.has(entry.id)) history.push(entry);
    history.sort((a, b) => a.at - b.at);
    saved.sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
    this.history = new Map(history.map((e) => [e.id, e]));
    this.saved = new Map(saved.map((s) => [s.id, s]));
    this.savedByQuery = new Map(saved.map((s) => [savedKey(s), s]));
    // What another window deleted is gone here too.
    for (const id of this.missing) if (!this.history.has(id)) this.missing.delete(id);
    for (const id of this.texts.keys()) if (!this.history.has(id)) this.texts.delete(id);
    this.newestFirst = undefined;
  }

  /** Writes each entry of the old format as a record and a file, then removes the old value. */
  private async migrate(): Promise<void> {
    const legacy = legacyLookups(this.storage.get(LEGACY_KEY));
    if (!legacy) return;
    let complete = true;
    for (const { entry, text } of legacy.history) {
      const prepared = text === undefined ? undefined : await this.prepare(text);
      const migrated: LookupEntry = prepared ? { ...entry, answer: { form: entry.answer?.form ?? 'json', chars: prepared.text.length } } : entry;
      // The file first: a record is never without its file. One that cannot be written keeps the
      // old value in place, so the next start tries again and no entry is lost.
      if (prepared && !(await this.writeAnswer(migrated, prepared.bytes))) {
        complete = false;
        continue;
      }
      await this.write(HISTORY_PREFIX + entry.id, migrated);
      this.texts.delete(entry.id);
    }
    for (const s of legacy.saved) await this.write(SAVED_PREFIX + s.id, s);
    if (complete) await this.write(LEGACY_KEY, undefined);
  }

  /** Marks the entries whose file is gone, and removes old files that no entry names. */
  private async checkFiles(): Promise<void> {
    let names: readonly string[];
    try {
      names = await this.storage.listFiles();
    } catch (err) {
      this.options.onError?.('the folder of answers could not be read', err);
      return;
    }
    const present = new Set(names);
    for (const entry of this.history.values()) {
      if (entry.answer && !this.texts.has(entry.id) && !present.has(fileName(entry))) this.missing.add(entry.id);
    }
    const old = Date.now() - ORPHAN_AGE_MS;
    for (const name of names) {
      const id = name.split('.')[0];
      if (!this.history.has(id) && createdAt(id) < old) await this.deleteFile(name);
    }
  }

  /**
   * The file, then the record (another window that sees the record finds the file), together with
   * the removal of the oldest record past the limit: updates made in one turn are one write of
   * globalState for VS Code. Then the oldest entry's file.
   */
  private async store(entry: LookupEntry, prepared: Prepared | undefined): Promise<void> {
    if (prepared && (await this.writeAnswer(entry, prepared.bytes))) {
      this.texts.delete(entry.id);
      this.recent = { id: entry.id, text: prepared.text };
    }
    if (this.history.get(entry.id) !== entry) {
      // Deleted while its file was being written.
      await this.deleteFile(fileName(entry));
      return;
    }
    const dropped = this.overLimit();
    await Promise.all([this.write(HISTORY_PREFIX + entry.id, entry), ...dropped.map((e) => this.write(HISTORY_PREFIX + e.id, undefined))]);
    this.unsaved.delete(entry.id);
    for (const e of dropped) if (e.answer) await this.deleteFile(fileName(e));
  }

  private async trim(): Promise<void> {
    for (const e of this.overLimit()) await this.remove(e);
  }

  /** Takes the oldest entries past the limit out of the history (oldest first in the map: constant time each). */
  private overLimit(): LookupEntry[] {
    const dropped: LookupEntry[] = [];
    while (this.history.size > HISTORY_LIMIT) {
      const oldest = this.history.values().next().value as LookupEntry;
      this.forget(oldest);
      dropped.push(oldest);
    }
    if (dropped.length > 0) this.changed();
    return dropped;
  }

  private forget(entry: LookupEntry): void {
    this.history.delete(entry.id);
    this.unsaved.delete(entry.id);
    this.texts.delete(entry.id);
    this.missing.delete(entry.id);
    if (this.recent?.id === entry.id) this.recent = undefined;
  }

  /** The record, then the file: no window is left with a record whose file was taken first. */
  private async remove(entry: LookupEntry): Promise<void> {
    await this.write(HISTORY_PREFIX + entry.id, undefined);
    if (entry.answer) await this.deleteFile(fileName(entry));
  }

  private async writeAnswer(entry: LookupEntry, bytes: Uint8Array): Promise<boolean> {
    try {
      await this.storage.writeFile(fileName(entry), bytes);
      return true;
    } catch (err) {
      // Kept in memory for this session; after a restart the entry says its answer is not stored.
      this.options.onError?.(`the answer of ${queryLabel(entry.query)} could not be stored`, err);
      return false;
    }
  }

  private async write(key: string, value: unknown): Promise<void> {
    try {
      await this.storage.update(key, value);
    } catch (err) {
      this.options.onError?.('the lookup history could not be stored', err);
    }
  }

  private async deleteFile(name: string): Promise<void> {
    try {
      await this.storage.deleteFile(name);
    } catch (err) {
      this.options.onError?.(`the answer file ${name} could not be removed`, err);
    }
  }

  /** A value with every secret the redaction knows replaced in its strings. */
  private redactedJson<T>(value: T): T {
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
  }

  private redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }

  /**
   * The answer without secrets, and its UTF-8 for the file: a large one slice by slice with a turn
   * between (at once, a 50 MB answer would hold the extension host for hundreds of milliseconds).
   */
  private async prepare(text: string): Promise<Prepared> {
    if (text.length <= SLICE_CHARS) {
      const clean = this.redact(text);
      return { text: clean, bytes: Buffer.from(clean, 'utf8') };
    }
    // Joined with + (V8 links the slices; join and concat would copy 50 MB in one go).
    const parts: string[] = [];
    let clean = '';
    let size = 0;
    for (const slice of lineSlicesOf(text)) {
      const part = this.redact(slice);
      parts.push(part);
      clean += part;
      size += Buffer.byteLength(part, 'utf8');
      await nextTurn();
    }
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    for (const part of parts) {
      at += bytes.write(part, at, 'utf8');
      await nextTurn();
    }
    return { text: clean, bytes };
  }

  private changed(): void {
    this.newestFirst = undefined;
    this.fire();
  }

  private fire(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** An answer as written: its text without secrets, and that text's UTF-8. */
interface Prepared {
  readonly text: string;
  readonly bytes: Uint8Array;
}

/** A file's text, decoded slice by slice with a turn between (see prepare). */
async function decoded(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= SLICE_CHARS) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (let at = 0; at < bytes.length; at += SLICE_CHARS) {
    // stream: a character whose bytes straddle two slices is decoded whole.
    text += decoder.decode(bytes.subarray(at, at + SLICE_CHARS), { stream: true });
    await nextTurn();
  }
  return text + decoder.decode();
}

/** The answer as the result document shows it: the text as sent, or the body pretty-printed. */
function answerFrom(query: HistoryQuery, result: CallResult, textIsJson: boolean): { readonly form: AnswerInfo['form']; readonly text: string } | undefined {
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
function newId(at: number): string {
  return `${Math.max(0, Math.trunc(at)).toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** When an id was made (its leading time); ids of another form count as new, so they are kept. */
function createdAt(id: string): number {
  const match = /^([0-9a-z]+)-[0-9a-f]{8}$/.exec(id);
  return match ? parseInt(match[1], 36) : Number.POSITIVE_INFINITY;
}

/** Without the fields that are undefined: the entry in memory is the one a new start reads back. */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** A stored query, checked enough that rendering it cannot fail. */
export function isHistoryQuery(value: unknown): value is HistoryQuery {
  if (!isObject(value)) return false;
  if (value.kind === 'ip') return typeof value.ip === 'string';
  if (value.kind === 'org') return typeof value.country === 'string' && typeof value.name === 'string';
  return value.kind === 'request' && isObject(value.request) && typeof value.request.method === 'string' && typeof value.request.url === 'string';
}

/** A record of globalState as an entry, or undefined when it is not one (another version, damage). */
function asEntry(value: unknown): LookupEntry | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.at !== 'number' || typeof value.ok !== 'boolean' || !isHistoryQuery(value.query)) return undefined;
  return { ...value, durationMs: typeof value.durationMs === 'number' ? value.durationMs : 0 } as LookupEntry;
}

export function asSaved(value: unknown): SavedQuery | undefined {
  return isObject(value) && typeof value.id === 'string' && isHistoryQuery(value.query) ? (value as unknown as SavedQuery) : undefined;
}

/** One string per distinct query: the Saved group holds each once. */
export function queryKey(q: HistoryQuery): string {
  if (q.kind === 'ip') return JSON.stringify(['ip', q.ip, q.view ?? '']);
  if (q.kind === 'org') return JSON.stringify(['org', q.country, q.name, q.territory ?? '', q.matchType ?? '']);
  return JSON.stringify(['request', q.name ?? '', q.request]);
}

/** One string per saved query: the same query on two connections is kept twice. */
function savedKey(s: Pick<SavedQuery, 'query' | 'connection'>): string {
  return JSON.stringify([queryKey(s.query), s.connection ?? '']);
}

/** Short label for a query: "203.0.113.7", "Acme Ltd (GB)", or a request's name or "GET /v1/…". */
export function queryLabel(q: HistoryQuery): string {
  // Names come from files and other people's batches: shown without control or bidi characters.
  if (q.kind === 'request') return safeLine(q.name ?? `${q.request.method} ${pathOf(q.request.url)}`);
  return safeLine(q.kind === 'ip' ? q.ip : `${q.name} (${q.country}${q.territory ? `, ${q.territory}` : ''})`);
}

/** What kind of call a query is, in words: "IP address", "organization", "request". */
export function queryKindLabel(q: HistoryQuery): string {
  return q.kind === 'ip' ? 'IP address' : q.kind === 'org' ? 'organization' : 'request';
}

/** Path and query of a URL (the host is one of the service's, and long). */
export function pathOf(url: string): string {
  return URL.canParse(url) ? `${new URL(url).pathname}${new URL(url).search}` : url;
}

// The history as versions up to 0.1 kept it: one globalState value holding every entry with its
// answer inline (answers over 64 KB were dropped at a restart), and the saved queries. Read on the
// first start of this version and brought over by load().
const LEGACY_KEY = 'bizdata.lookups';

interface LegacyLookups {
  /** Each entry without its answer, and the answer as its document showed it. */
  readonly history: ReadonlyArray<{ readonly entry: LookupEntry; readonly text?: string }>;
  readonly saved: readonly SavedQuery[];
}

/** The old value, or undefined when there is none (or nothing in it can be read). */
function legacyLookups(value: unknown): LegacyLookups | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { history, saved } = value as { history?: unknown; saved?: unknown };
  const entries = Array.isArray(history) ? history.flatMap((e) => legacyEntry(e) ?? []) : [];
  // The old list kept its order by position; the time it was saved did not exist yet.
  const queries = Array.isArray(saved) ? saved.flatMap((s) => asSaved(s) ?? []).map((s, i) => ({ ...s, at: s.at ?? i })) : [];
  return { history: entries, saved: queries };
}

interface OldEntry {
  readonly id: string;
  readonly at: number;
  readonly ok: boolean;
  readonly durationMs?: number;
  readonly body?: unknown;
  readonly responseText?: string;
  readonly responseIsJson?: boolean;
}

function legacyEntry(value: unknown): { entry: LookupEntry; text?: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const old = value as Partial<OldEntry> & { query?: unknown };
  if (typeof old.id !== 'string' || typeof old.at !== 'number' || typeof old.ok !== 'boolean' || !isHistoryQuery(old.query)) return undefined;
  const { body, responseText, responseIsJson, ...rest } = value as OldEntry & Record<string, unknown>;
  // As the old result document rendered it.
  const text = typeof responseText === 'string' ? responseText : body !== undefined ? prettyJson(body) : undefined;
  const form: AnswerInfo['form'] = typeof responseText === 'string' && responseIsJson !== true ? 'text' : 'json';
  const entry = { ...rest, durationMs: typeof old.durationMs === 'number' ? old.durationMs : 0 } as unknown as LookupEntry;
  return { entry: text === undefined ? entry : { ...entry, answer: { form, chars: text.length } }, text };
}

/** A success's code line, kept with the entry because its answer lives in a file read only on demand. */
function successLine(body: unknown, code: string | undefined, status: number): string | undefined {
  const r = code !== undefined ? recogniseBody(body, BUILT_IN, status) : undefined;
  return r ? `${r.code}: ${explainLine(r)}` : undefined;
}

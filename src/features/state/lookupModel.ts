// Saved queries and recent lookup history: plain data and change events, no rendering, no `vscode`
// (the extension hands it a HistoryStorage over globalState and its storage folder: lookupStorage.ts).
// A lookup writes its own record and its own answer file, never the whole history: globalState holds
// one small summary per entry, the answer lives in a file named by the entry's id, written once.
// What an entry holds is lookupEntries.ts; how records and files are written, historyRecords.ts.
import type { CallResult } from '../../core/model';
import { UserError } from '../shared/userError';
import type { HistoryQuery } from './historyQueries';
import { HistoryRecords, type HistoryOptions, type HistoryStorage, type Prepared } from './historyRecords';
import { migrateLegacy, readLegacy } from './legacyLookups';
import { answerFrom, createdAt, definedOnly, entryOf, fileName, newId, savedKey, type LookupEntry, type SavedQuery, type StoredAnswer } from './lookupEntries';

export const HISTORY_LIMIT = 50;
export const SAVED_LIMIT = 100;
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
  private readonly records: HistoryRecords;

  constructor(storage: HistoryStorage, options: HistoryOptions = {}) {
    this.records = new HistoryRecords(storage, options);
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
    const prepared = answer === undefined ? undefined : await this.records.prepare(answer.text);
    const kept = answer && prepared ? { form: answer.form, chars: prepared.text.length } : undefined;
    const entry = entryOf(query, result, { at, connection: options.connection, answer: kept }, (text) => this.records.redact(text));
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
    const read = await this.records.readAnswer(entry);
    if (read !== undefined) return { state: 'stored', text: read };
    if (this.history.has(entry.id) && !this.missing.has(entry.id)) {
      this.missing.add(entry.id);
      this.fire();
    }
    return { state: 'missing' };
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
    await this.records.writeSaved(saved);
    return saved;
  }

  /** Removes a history entry (and its file) or a saved query. */
  async delete(id: string): Promise<void> {
    const saved = this.saved.get(id);
    if (saved) {
      this.saved.delete(id);
      this.savedByQuery.delete(savedKey(saved));
      this.fire();
      await this.records.removeSaved(id);
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
    await migrateLegacy(this.records, (id) => this.texts.delete(id));
    this.readIndex();
    await this.checkFiles();
    await this.trim();
    this.fire();
  }

  /** The records as stored, with this window's entries whose record is still being written. */
  private readIndex(): void {
    const { history, saved } = this.records.read();
    // Until the old format is migrated (load), its entries show with their answers from memory.
    const legacy = readLegacy(this.records);
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

  /** Marks the entries whose file is gone, and removes old files that no entry names. */
  private async checkFiles(): Promise<void> {
    const names = await this.records.listFiles();
    if (names === undefined) return;
    const present = new Set(names);
    for (const entry of this.history.values()) {
      if (entry.answer && !this.texts.has(entry.id) && !present.has(fileName(entry))) this.missing.add(entry.id);
    }
    const old = Date.now() - ORPHAN_AGE_MS;
    for (const name of names) {
      const id = name.split('.')[0];
      if (!this.history.has(id) && createdAt(id) < old) await this.records.deleteFile(name);
    }
  }

  /**
   * The file, then the record (another window that sees the record finds the file), together with
   * the removal of the oldest record past the limit: updates made in one turn are one write of
   * globalState for VS Code. Then the oldest entry's file.
   */
  private async store(entry: LookupEntry, prepared: Prepared | undefined): Promise<void> {
    if (prepared && (await this.records.writeAnswer(entry, prepared.bytes))) {
      this.texts.delete(entry.id);
      this.recent = { id: entry.id, text: prepared.text };
    }
    if (this.history.get(entry.id) !== entry) {
      // Deleted while its file was being written.
      await this.records.deleteFile(fileName(entry));
      return;
    }
    const dropped = this.overLimit();
    await Promise.all([this.records.writeEntry(entry), ...dropped.map((e) => this.records.removeEntry(e.id))]);
    this.unsaved.delete(entry.id);
    for (const e of dropped) if (e.answer) await this.records.deleteFile(fileName(e));
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
    await this.records.removeEntry(entry.id);
    if (entry.answer) await this.records.deleteFile(fileName(entry));
  }

  private changed(): void {
    this.newestFirst = undefined;
    this.fire();
  }

  private fire(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

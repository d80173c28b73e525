// The history's storage as the model uses it: the records under their keys, each answer in its own
// file, every secret the client knows replaced in all that is written, and a write or read that
// fails reported and passed over (the history goes on without it).
import { lineSlicesOf, nextTurn, SLICE_CHARS } from '../shared/codeScanner';
import { queryLabel } from './historyQueries';
import { asEntry, asSaved, fileName, type LookupEntry, type SavedQuery } from './lookupEntries';

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

export interface HistoryOptions {
  /** Replaces every secret the client knows: applied to all that is written. */
  readonly redact?: (text: string) => string;
  /** A write or read that failed; the history goes on without it. */
  readonly onError?: (what: string, err: unknown) => void;
}

const HISTORY_PREFIX = 'bizdata.history.';
const SAVED_PREFIX = 'bizdata.saved.';

export class HistoryRecords {
  constructor(
    private readonly storage: HistoryStorage,
    private readonly options: HistoryOptions = {},
  ) {}

  /** A record as stored (undefined when there is none). */
  get(key: string): unknown {
    return this.storage.get(key);
  }

  /** The entries and saved queries stored, in no order; records that cannot be read are left out. */
  read(): { readonly history: LookupEntry[]; readonly saved: SavedQuery[] } {
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
    return { history, saved };
  }

  writeEntry(entry: LookupEntry): Promise<void> {
    return this.update(HISTORY_PREFIX + entry.id, entry);
  }

  removeEntry(id: string): Promise<void> {
    return this.update(HISTORY_PREFIX + id, undefined);
  }

  writeSaved(saved: SavedQuery): Promise<void> {
    return this.update(SAVED_PREFIX + saved.id, saved);
  }

  removeSaved(id: string): Promise<void> {
    return this.update(SAVED_PREFIX + id, undefined);
  }

  /** Sets one record; undefined removes it. */
  async update(key: string, value: unknown): Promise<void> {
    try {
      await this.storage.update(key, value);
    } catch (err) {
      this.options.onError?.('the lookup history could not be stored', err);
    }
  }

  /** Writes the entry's answer file; false when it could not be written. */
  async writeAnswer(entry: LookupEntry, bytes: Uint8Array): Promise<boolean> {
    try {
      await this.storage.writeFile(fileName(entry), bytes);
      return true;
    } catch (err) {
      // Kept in memory for this session; after a restart the entry says its answer is not stored.
      this.options.onError?.(`the answer of ${queryLabel(entry.query)} could not be stored`, err);
      return false;
    }
  }

  /** The entry's answer from its file; undefined when the file is missing or cannot be read. */
  async readAnswer(entry: LookupEntry): Promise<string | undefined> {
    try {
      return await decoded(await this.storage.readFile(fileName(entry)));
    } catch (err) {
      this.options.onError?.(`the answer of ${queryLabel(entry.query)} could not be read`, err);
      return undefined;
    }
  }

  async deleteFile(name: string): Promise<void> {
    try {
      await this.storage.deleteFile(name);
    } catch (err) {
      this.options.onError?.(`the answer file ${name} could not be removed`, err);
    }
  }

  /** The names of the answer files; undefined when the folder cannot be read. */
  async listFiles(): Promise<readonly string[] | undefined> {
    try {
      return await this.storage.listFiles();
    } catch (err) {
      this.options.onError?.('the folder of answers could not be read', err);
      return undefined;
    }
  }

  /** The text with every secret the client knows replaced. */
  redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }

  /**
   * The answer without secrets, and its UTF-8 for the file: a large one slice by slice with a turn
   * between (at once, a 50 MB answer would hold the extension host for hundreds of milliseconds).
   */
  async prepare(text: string): Promise<Prepared> {
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
}

/** An answer as written: its text without secrets, and that text's UTF-8. */
export interface Prepared {
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

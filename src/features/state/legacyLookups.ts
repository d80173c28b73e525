// The history as versions up to 0.1 kept it: one globalState value holding every entry with its
// answer inline (answers over 64 KB were dropped at a restart), and the saved queries. Read on the
// first start of this version and brought over, entry by entry, by LookupModel.load().
import { isHistoryQuery } from './historyQueries';
import type { HistoryRecords } from './historyRecords';
import { asSaved, prettyJson, type AnswerInfo, type LookupEntry, type SavedQuery } from './lookupEntries';

const LEGACY_KEY = 'bizdata.lookups';

export interface LegacyLookups {
  /** Each entry without its answer, and the answer as its document showed it. */
  readonly history: ReadonlyArray<{ readonly entry: LookupEntry; readonly text?: string }>;
  readonly saved: readonly SavedQuery[];
}

/** The old value, or undefined when there is none (or nothing in it can be read). */
export function readLegacy(records: HistoryRecords): LegacyLookups | undefined {
  const value = records.get(LEGACY_KEY);
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

/**
 * Writes each entry of the old format as a record and a file, then removes the old value.
 * `migrated` hears of each entry once its record is written.
 */
export async function migrateLegacy(records: HistoryRecords, migrated: (id: string) => void): Promise<void> {
  const legacy = readLegacy(records);
  if (!legacy) return;
  let complete = true;
  for (const { entry, text } of legacy.history) {
    const prepared = text === undefined ? undefined : await records.prepare(text);
    const moved: LookupEntry = prepared ? { ...entry, answer: { form: entry.answer?.form ?? 'json', chars: prepared.text.length } } : entry;
    // The file first: a record is never without its file. One that cannot be written keeps the
    // old value in place, so the next start tries again and no entry is lost.
    if (prepared && !(await records.writeAnswer(moved, prepared.bytes))) {
      complete = false;
      continue;
    }
    await records.writeEntry(moved);
    migrated(entry.id);
  }
  for (const s of legacy.saved) await records.writeSaved(s);
  if (complete) await records.update(LEGACY_KEY, undefined);
}

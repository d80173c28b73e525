// What an earlier run of a data-driven job finished, read from its results file before this run, so
// the report and the summary count the whole job: JSON Lines keep each row's verdict, status, code and
// failure; a results CSV holds only rows done with, by status and code, and no verdict. The one place
// a report reads a results file: a row the results module already holds as done (core/data) is
// looked up here by the same identity (its line and values; a CSV's by its line), and as there the
// last result written for a line is the one that counts. The file is read as a stream through the
// same door, and kept in a few bytes a row (a digest and a shared result), so a job of millions of
// rows, whose JSON Lines hold every answer, is resumed in bounded memory.
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { MAX_DATA_LINE } from '../data/dataLimits';
import { holding, valuesDigest } from '../data/doneRows';
import { jsonLines, openJournal } from '../data/journal';

/** A row an earlier run finished, as its results file says. */
export interface EarlierRow {
  /** The verdict; undefined when the file keeps none (CSV). */
  readonly ok?: boolean;
  readonly status?: number;
  readonly code?: string;
  /** The failure's words and advice, as written (kept for a report only). */
  readonly text?: string;
}

export interface EarlierRows {
  /** The row's latest finished result before this run, if it had one. */
  of(row: { readonly line: number; readonly values: Readonly<Record<string, string>> }): EarlierRow | undefined;
}

const NONE: EarlierRows = { of: () => undefined };

/**
 * The finished rows of a results file (.jsonl/.ndjson or .csv); none when there is no file yet.
 * `texts`: keep each failure's words (a report shows them; counts need none).
 */
export async function readEarlierRows(outFile: string | undefined, o: { readonly texts?: boolean } = {}): Promise<EarlierRows> {
  if (outFile === undefined) return NONE;
  const journal = await openJournal(outFile, 'a results file', true);
  try {
    if (journal.size === 0) return NONE;
    const rows = new LatestRows(o.texts === true);
    if (/\.csv$/i.test(outFile)) await readCsv(journal.chunks(), rows);
    else await readJsonLines(journal.chunks(), rows);
    return rows;
  } finally {
    await journal.close();
  }
}

async function readJsonLines(chunks: AsyncIterable<Buffer>, rows: LatestRows): Promise<void> {
  for await (const { text: raw } of jsonLines(chunks)) {
    let l: { line?: unknown; values?: unknown; ok?: unknown; final?: unknown; status?: unknown; code?: unknown; error?: { text?: unknown; advice?: unknown } };
    try {
      l = JSON.parse(raw) as typeof l;
    } catch {
      continue; // a blank line, or one cut short by a kill: its row ran again
    }
    if (typeof l?.line !== 'number' || typeof l.values !== 'object' || l.values === null) continue;
    const digest = valuesDigest(l.values as Record<string, string>);
    // Only the latest line of a row counts, and only when it finished the row.
    if (l.final !== true) {
      rows.set(l.line, digest, undefined);
      continue;
    }
    const text = [l.error?.text, l.error?.advice].filter((t): t is string => typeof t === 'string').join(' ');
    rows.set(l.line, digest, {
      ok: l.ok === true,
      ...(typeof l.status === 'number' ? { status: l.status } : {}),
      ...(typeof l.code === 'string' ? { code: l.code } : {}),
      ...(text !== '' ? { text } : {}),
    });
  }
}

async function readCsv(chunks: AsyncIterable<Buffer>, rows: LatestRows): Promise<void> {
  const source = Readable.from(chunks);
  const parser = source.pipe(parse({ bom: true, columns: true, relax_column_count: true, skip_records_with_error: true }));
  source.on('error', (err) => parser.destroy(err));
  try {
    for await (const r of parser as AsyncIterable<Record<string, string>>) {
      const line = Number(r.line);
      if (!Number.isInteger(line)) continue;
      const status = Number(r.status);
      rows.set(line, undefined, { ...(r.status !== '' && Number.isInteger(status) ? { status } : {}), ...(r.code ? { code: r.code } : {}) });
    }
  } catch {
    // Not ours, or a record cut short by a kill: the results module refuses the one and cuts the
    // other before anything is sent; the rows read before it stand.
  } finally {
    source.destroy();
    await finished(source).catch(() => undefined);
  }
}

/** The latest result of each line, in typed arrays: a digest of its values and the index of a result shared by every row alike. */
class LatestRows implements EarlierRows {
  private digests = new Float64Array(1024);
  /** Per line: 0 none (or not finished), else 1 + the index of its result in `results`. */
  private indexes = new Uint32Array(1024);
  private readonly results: EarlierRow[] = [];
  private readonly known = new Map<string, number>();
  /** A failure's words, by line, for a report. */
  private readonly texts = new Map<number, string>();

  constructor(private readonly keepTexts: boolean) {}

  /** The line's latest result; `digest` undefined when the file keeps no values (CSV): any values match. */
  set(line: number, digest: number | undefined, result: EarlierRow | undefined): void {
    if (!Number.isSafeInteger(line) || line < 1 || line > MAX_DATA_LINE) return;
    this.digests = holding(this.digests, line);
    this.indexes = holding(this.indexes, line);
    this.texts.delete(line);
    if (result === undefined) {
      this.indexes[line] = 0;
      return;
    }
    const { text, ...shared } = result;
    const key = `${String(shared.ok)}|${shared.status ?? ''}|${shared.code ?? ''}`;
    let index = this.known.get(key);
    if (index === undefined) {
      index = this.results.push(shared) - 1;
      this.known.set(key, index);
    }
    this.indexes[line] = index + 1;
    this.digests[line] = digest ?? Number.NaN;
    if (text !== undefined && this.keepTexts) this.texts.set(line, text);
  }

  of(row: { readonly line: number; readonly values: Readonly<Record<string, string>> }): EarlierRow | undefined {
    const index = row.line < this.indexes.length ? this.indexes[row.line] : 0;
    if (!index) return undefined;
    const digest = this.digests[row.line];
    if (!Number.isNaN(digest) && digest !== valuesDigest(row.values)) return undefined;
    const text = this.texts.get(row.line);
    return text === undefined ? this.results[index - 1] : { ...this.results[index - 1], text };
  }
}

// npm run bench:history — issue 20's history line, from one run: 10,000 interactive lookups whose
// answers are 60 KB (a sandbox in this process sends them through its `respond` fault; the real
// client, with its redaction, makes each CallResult), each recorded in the lookup history as the
// extension does. The history's storage is the extension's in plain Node: records in a Map standing
// for globalState (copied as JSON, as VS Code's Memento does), each answer a real file in a temporary
// folder, written beside and renamed over. Measured per lookup: the bytes written (records + files)
// against the entry's own size (its record and its answer), and the time LookupModel.add takes (file
// and record written), the median of the last 1,000 lookups against that of the first 1,000, after a
// warm-up on a history of its own. The HTTP call is not timed.
// Beside it, what VS Code itself writes: it keeps an extension's globalState as one value and writes
// it whole once per turn with updates; and what the old format (every entry and answer in that one
// value, rewritten whole on each lookup) would write with the same 50 entries.
import type { CallSuccess } from '../src/core/model';
import type { LookupEntry } from '../src/features/state/lookupEntries';
import { HISTORY_LIMIT, LookupModel } from '../src/features/state/lookupModel';
import { ok, sandbox, testClient } from '../test/unit/core/harness';
import { FolderHistoryStorage } from '../test/unit/features/historyStorage';

const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 10_000);
const ANSWER_BYTES = 60 * 1024;
const WINDOW = Math.min(1_000, Math.floor(LOOKUPS / 4));
const WARMUP = 300;

/** A search answer of about 60 KB once pretty-printed, as the result document shows it. */
function answer(): unknown {
  const candidates: unknown[] = [];
  const body = { MatchResponse: { TransactionDetail: { ApplicationTransactionID: 'bench' }, TransactionResult: { ResultID: 'CM000', ResultText: 'Success' }, MatchCandidate: candidates } };
  for (let i = 0; JSON.stringify(body, null, 2).length < ANSWER_BYTES; i++) {
    candidates.push({ DisplaySequence: i + 1, DUNSNumber: String(100_000_000 + i), OrganizationPrimaryName: { OrganizationName: { $: `Example Organization ${i}` } }, PrimaryAddress: { addressLocality: 'Sandbox City', countryISOAlpha2Code: 'GB' } });
  }
  return body;
}

async function stored(model: LookupModel, entry: LookupEntry): Promise<string> {
  const a = await model.answerOf(entry);
  if (a.state !== 'stored') throw new Error(`the answer of ${entry.id} is ${a.state}`);
  return a.text;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
/** The middle value: on a shared machine a few lookups wait for the CPU, and a mean follows them. */
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const sb = await sandbox({ qps: 100_000, concurrency: 100 });
  const t = testClient(sb.url, { limits: { qps: 100_000, concurrency: 8 } });
  const storage = FolderHistoryStorage.temporary();
  try {
    await sb.admin('POST', 'faults', { type: 'respond', path: '/v1/duns-search/ip/', status: 200, body: answer(), count: LOOKUPS + WARMUP });
    const redact = (text: string): string => t.client.redact(text);
    // Warm up (the JIT, the file system) on a history of its own, so the first measured lookups are
    // not slower for reasons that have nothing to do with the history's size.
    const warm = FolderHistoryStorage.temporary();
    const warmModel = new LookupModel(warm, { redact });
    for (let i = 0; i < WARMUP; i++) await warmModel.add({ kind: 'ip', ip: '10.255.0.1' }, ok(await t.client.lookupIp({ ip: '10.255.0.1' })));
    await warm.settled();
    warm.remove();
    const model = new LookupModel(storage, { redact });
    await model.load();
    const times: number[] = [];
    let written = 0;
    let own = 0;
    for (let i = 0; i < LOOKUPS; i++) {
      const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const result = ok(await t.client.lookupIp({ ip }));
      const before = { ...storage.written };
      const t0 = performance.now();
      const entry = await model.add({ kind: 'ip', ip }, result as CallSuccess);
      times.push(performance.now() - t0);
      written += storage.written.fileBytes - before.fileBytes + storage.written.recordBytes - before.recordBytes;
      own += (entry.answer?.chars ?? 0) + Buffer.byteLength(JSON.stringify(storage.get(`bizdata.history.${entry.id}`)));
    }
    await storage.settled();
    const first = median(times.slice(0, WINDOW));
    const last = median(times.slice(-WINDOW));
    // Once the history is full every lookup also drops the oldest entry (its record and file).
    const second = median(times.slice(WINDOW, 2 * WINDOW));
    const perLookup = written / LOOKUPS;
    const memento = storage.mementoSize();
    // The old format: one value with every entry and its answer inline, rewritten whole per lookup.
    const oldFormat = Buffer.byteLength(JSON.stringify({ history: await Promise.all(model.entries.map(async (e) => ({ ...e, body: JSON.parse(await stored(model, e)) as unknown }))), saved: [] }));
    const rows = {
      lookups: LOOKUPS,
      entries: model.entries.length,
      answerBytes: Math.round(mean(model.entries.map((e) => e.answer?.chars ?? 0))),
      writtenPerLookup: Math.round(perLookup),
      ownSizePerLookup: Math.round(own / LOOKUPS),
      writtenOverOwn: Number((written / own).toFixed(3)),
      totalWrittenMB: Number((written / 1e6).toFixed(1)),
      globalStateBytes: memento,
      globalStateWritesPerLookup: Number((storage.written.mementoWrites / LOOKUPS).toFixed(2)),
      globalStateWrittenPerLookup: Math.round(storage.written.mementoBytes / LOOKUPS),
      oldFormatBytesPerLookup: oldFormat,
      msFirst: Number(first.toFixed(3)),
      msSecond: Number(second.toFixed(3)),
      msLast: Number(last.toFixed(3)),
      msMeanFirst: Number(mean(times.slice(0, WINDOW)).toFixed(3)),
      msMeanLast: Number(mean(times.slice(-WINDOW)).toFixed(3)),
      lastOverFirst: Number((last / first).toFixed(3)),
      filesInFolder: storage.files().size,
    };
    console.log(JSON.stringify(rows));
    console.log(`\nhistory: ${LOOKUPS.toLocaleString('en')} interactive lookups with ${kb(rows.answerBytes)} answers; the history holds ${rows.entries} (limit ${HISTORY_LIMIT}), ${rows.filesInFolder} answer files`);
    console.log(`  written per lookup:   ${kb(perLookup)} (its answer file + its record) = ${(written / own).toFixed(3)} x the entry's own size (${kb(own / LOOKUPS)}); ${rows.totalWrittenMB} MB in all`);
    console.log(`  globalState:          ${kb(memento)} (${rows.entries} records, no answer); VS Code writes it whole ${rows.globalStateWritesPerLookup} time(s) per lookup: ${kb(rows.globalStateWrittenPerLookup)} per lookup`);
    console.log(`  old format, same ${rows.entries}:  ${kb(oldFormat)} rewritten per lookup (${(oldFormat / (perLookup + rows.globalStateWrittenPerLookup)).toFixed(0)} x all that is written now)`);
    console.log(`  time per lookup (p50): first ${WINDOW.toLocaleString('en')} ${first.toFixed(3)} ms, last ${WINDOW.toLocaleString('en')} ${last.toFixed(3)} ms: last ÷ first = ${rows.lastOverFirst} (means ${rows.msMeanFirst} and ${rows.msMeanLast} ms; second ${WINDOW.toLocaleString('en')}, all with a full history: ${second.toFixed(3)} ms)`);
  } finally {
    storage.remove();
    await t.client.dispose();
    await sb.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

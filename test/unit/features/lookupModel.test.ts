// The lookup history writes one entry per lookup: its small record (globalState in the extension)
// and its answer as a file of its own, never the whole history; it brings an old-format history over,
// survives lost files, keeps secrets out, and two windows writing at once lose nothing.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tokenOwner } from '../../../src/core/accounts/session';
import type { CallFailure, CallResult, CallSuccess, LookupQuery } from '../../../src/core/model';
import { redact } from '../../../src/core/redact';
import { SLICE_CHARS } from '../../../src/features/shared/codeScanner';
import { UserError } from '../../../src/features/shared/userError';
import type { HistoryQuery } from '../../../src/features/state/historyQueries';
import type { LookupEntry } from '../../../src/features/state/lookupEntries';
import { HISTORY_LIMIT, LookupModel, SAVED_LIMIT } from '../../../src/features/state/lookupModel';
import { assertNoCanary, CANARY, endpointsFor, GOOD, ok, sandbox, testClient, type Sandbox, type TestClient } from '../core/harness';
import { FolderHistoryStorage } from './historyStorage';

const REQUEST = { method: 'GET', url: 'https://api.example.com/v1/duns-search/ip/203.0.113.7', headers: { Authorization: 'Bearer <TOKEN>' } };

/** A body of about `bytes` bytes once pretty-printed, naming `tag` in every item. */
function bodyOf(bytes: number, tag: string): unknown {
  const items: unknown[] = [];
  const item = (i: number): unknown => ({ i, name: `Example Organization ${i} ${tag}`, street: `${i} Example Street` });
  const each = JSON.stringify(item(0), null, 2).length + 4;
  for (let i = 0; i < Math.max(1, Math.round(bytes / each)); i++) items.push(item(i));
  return { MatchResponse: { TransactionResult: { ResultID: 'CM000' }, MatchCandidate: items } };
}

function success(body: unknown, part: Partial<CallSuccess> = {}): CallSuccess {
  return { ok: true, status: 200, body, code: 'CM000', durationMs: 12, request: REQUEST, ...part };
}

const ip = (n: number): LookupQuery => ({ kind: 'ip', ip: `10.0.${(n >> 8) & 255}.${n & 255}` });
const pretty = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

/** Records and files now in the storage, as one list of texts. */
function everything(storage: FolderHistoryStorage): string[] {
  return [...[...storage.records.entries()].map(([k, v]) => `${k} ${JSON.stringify(v)}`), ...storage.files().values()];
}

async function text(model: LookupModel, entry: LookupEntry): Promise<string | undefined> {
  const answer = await model.answerOf(entry);
  return answer.state === 'stored' ? answer.text : undefined;
}

describe('lookup history storage', () => {
  let storage: FolderHistoryStorage;
  beforeEach(() => {
    storage = FolderHistoryStorage.temporary();
  });
  afterEach(() => storage.remove());

  it('writes one lookup as its own record and its own file, not the whole history', async () => {
    const model = new LookupModel(storage);
    for (let i = 0; i < HISTORY_LIMIT; i++) await model.add(ip(i), success(bodyOf(60 * 1024, `old-${i}`)), { at: 1_000 + i });
    await storage.settled();
    storage.resetCounts();

    const body = bodyOf(60 * 1024, 'the-new-one');
    const entry = await model.add(ip(999), success(body), { at: 9_000 });
    const answerBytes = Buffer.byteLength(pretty(body));
    assert.ok(answerBytes > 60_000, `the answer is ${answerBytes} bytes`);
    // One file (its answer), one record set (its summary), and the oldest entry dropped: record and file.
    assert.deepEqual({ files: storage.written.files, records: storage.written.records, deletions: storage.written.deletions }, { files: 1, records: 2, deletions: 1 });
    assert.equal(storage.written.fileBytes, answerBytes);
    const recordBytes = Buffer.byteLength(JSON.stringify(storage.records.get(`bizdata.history.${entry.id}`)));
    assert.equal(storage.written.recordBytes, recordBytes, 'only the new record was written');
    assert.ok(recordBytes < 1024, `the record is a summary (${recordBytes} bytes)`);
    const written = storage.written.fileBytes + storage.written.recordBytes;
    assert.ok(written <= (answerBytes + recordBytes) * 1.001, `${written} bytes written for an entry of ${answerBytes + recordBytes}`);

    // The records hold no answer: the history in globalState stays small however large the answers,
    // and VS Code writes it once for the lookup (the new record and the oldest's removal together).
    for (const [key, value] of storage.records) assert.ok(!JSON.stringify(value).includes('Example Street'), `${key} holds an answer`);
    await storage.settled();
    assert.equal(storage.written.mementoWrites, 1);
    assert.ok(storage.written.mementoBytes < HISTORY_LIMIT * 1024, `globalState holds ${storage.written.mementoBytes} bytes`);
    assert.equal(storage.files().get(`${entry.id}.json`), pretty(body));
    assert.equal(await text(model, entry), pretty(body));
  });

  it('keeps the newest 50 and removes the oldest entry\'s file with its record', async () => {
    const model = new LookupModel(storage);
    const first = await model.add(ip(0), success(bodyOf(2_000, 'first')), { at: 1 });
    for (let i = 1; i <= HISTORY_LIMIT; i++) await model.add(ip(i), success(bodyOf(2_000, `n${i}`)), { at: 1 + i });
    assert.equal(model.entries.length, HISTORY_LIMIT);
    assert.equal(model.find(first.id), undefined);
    assert.deepEqual(model.entries[0].query, ip(HISTORY_LIMIT), 'newest first');
    assert.equal(storage.files().size, HISTORY_LIMIT);
    assert.ok(!storage.files().has(`${first.id}.json`));
    assert.equal(storage.keys().filter((k) => k.startsWith('bizdata.history.')).length, HISTORY_LIMIT);
  });

  it('deleting an entry removes its record and its file; a saved query is found by id and deleted alike', async () => {
    const model = new LookupModel(storage);
    const entry = await model.add(ip(1), success(bodyOf(1_000, 'x')));
    const saved = await model.save(entry.query);
    assert.equal(model.findSaved(saved.id), saved);
    await model.delete(entry.id);
    assert.equal(model.find(entry.id), undefined);
    assert.deepEqual([...storage.files().keys()], []);
    assert.deepEqual(storage.keys(), [`bizdata.saved.${saved.id}`]);
    await model.delete(saved.id);
    assert.equal(model.findSaved(saved.id), undefined);
    assert.deepEqual(storage.keys(), []);
    assert.ok(model.isEmpty);
  });

  it('a new start reads back the entries, their answers (JSON and text) and the saved queries', async () => {
    const model = new LookupModel(storage);
    const json = await model.add(ip(1), success(bodyOf(5_000, 'json')), { at: 10 });
    const request: HistoryQuery = { kind: 'request', name: 'plain', request: { interfaceId: 'a', method: 'GET', url: 'https://api.example.com/v1/x', headers: {} } };
    const plain = await model.add(request, success(undefined, { text: 'not json', code: undefined }), { at: 20 });
    const empty = await model.add({ ...request, name: 'empty' }, success(undefined, { code: undefined }), { at: 30 });
    const failure: CallFailure = { ok: false, kind: 'auth', code: 'SC001', status: 401, text: 'Refused.', advice: 'Sign in again.', durationMs: 3, request: REQUEST, body: { error: { errorCode: 'SC001' } } };
    const refused = await model.add(ip(2), failure, { at: 40 });
    await model.save(ip(7));
    await model.save({ kind: 'org', country: 'GB', name: 'Acme' });

    const again = new LookupModel(storage);
    await again.load();
    assert.deepEqual(again.entries.map((e) => e.id), [refused.id, empty.id, plain.id, json.id]);
    assert.deepEqual(again.entries, model.entries);
    assert.equal(await text(again, again.find(json.id) as LookupEntry), await text(model, json));
    assert.deepEqual([again.find(plain.id)?.answer, await text(again, plain)], [{ form: 'text', chars: 8 }, 'not json']);
    assert.equal(await text(again, empty), '');
    assert.deepEqual(JSON.parse((await text(again, refused)) ?? ''), { error: { errorCode: 'SC001' } });
    assert.deepEqual(again.find(refused.id), { ...refused });
    assert.deepEqual(again.savedQueries.map((s) => s.query.kind), ['ip', 'org'], 'saved in the order they were saved');
    assert.equal(again.answerMissing(json.id), false);
  });

  it('brings an old-format history over on the first start without losing an entry', async () => {
    const withBody = { id: 'lq1a', query: ip(1), at: 100, ok: true, status: 200, code: 'CM000', durationMs: 5, request: REQUEST, body: bodyOf(3_000, 'legacy') };
    const asText = { id: 'lq1b', query: { kind: 'request', name: 'r', request: { interfaceId: 'a', method: 'GET', url: 'https://api.example.com/v1/t', headers: {} } }, at: 200, ok: true, status: 200, durationMs: 5, request: REQUEST, responseText: 'plain text answer' };
    const dropped = { id: 'lq1c', query: ip(3), at: 300, ok: true, status: 200, code: 'CM000', durationMs: 5, request: REQUEST };
    const saved = [{ id: 's1', query: ip(9) }, { id: 's2', query: { kind: 'org', country: 'GB', name: 'Acme' } }];
    await storage.update('bizdata.lookups', { history: [dropped, asText, withBody], saved });

    const model = new LookupModel(storage);
    // Shown at once, before anything is written.
    assert.deepEqual(model.entries.map((e) => e.id), ['lq1c', 'lq1b', 'lq1a']);
    assert.equal(await text(model, model.find('lq1a') as LookupEntry), pretty(withBody.body));
    await model.load();

    assert.equal(storage.get('bizdata.lookups'), undefined, 'the old value is removed once everything is written');
    assert.deepEqual([...storage.files().keys()].sort(), ['lq1a.json', 'lq1b.txt']);
    assert.equal(storage.files().get('lq1a.json'), pretty(withBody.body), 'the answer as the old result document showed it');

    const restarted = new LookupModel(storage);
    await restarted.load();
    assert.deepEqual(restarted.entries.map((e) => e.id), ['lq1c', 'lq1b', 'lq1a']);
    assert.equal(await text(restarted, restarted.find('lq1a') as LookupEntry), pretty(withBody.body));
    assert.equal(await text(restarted, restarted.find('lq1b') as LookupEntry), 'plain text answer');
    assert.equal(restarted.find('lq1b')?.answer?.form, 'text');
    assert.deepEqual(await restarted.answerOf(restarted.find('lq1c') as LookupEntry), { state: 'none' }, 'an answer the old version had dropped stays dropped');
    assert.deepEqual(restarted.find('lq1a')?.request, REQUEST);
    assert.deepEqual(restarted.savedQueries.map((s) => s.id), ['s1', 's2'], 'saved queries in their old order');
    for (const value of storage.records.values()) assert.ok(!JSON.stringify(value).includes('Example Street'));
  });

  it('two windows bringing the same old history over at once end with it once', async () => {
    const old = Array.from({ length: 5 }, (_, i) => ({ id: `old${i}`, query: ip(i), at: i, ok: true, status: 200, durationMs: 1, request: REQUEST, body: { n: i } }));
    await storage.update('bizdata.lookups', { history: old, saved: [] });
    const a = new LookupModel(storage);
    const b = new LookupModel(storage.window());
    await Promise.all([a.load(), b.load()]);
    const restarted = new LookupModel(storage);
    await restarted.load();
    assert.deepEqual(restarted.entries.map((e) => e.id), ['old4', 'old3', 'old2', 'old1', 'old0']);
    assert.equal(storage.files().size, 5);
  });

  it('shows an entry whose file is missing or unreadable as no longer stored, without failing', async () => {
    const model = new LookupModel(storage);
    const gone = await model.add(ip(1), success(bodyOf(1_000, 'gone')), { at: 1 });
    const broken = await model.add(ip(2), success(bodyOf(1_000, 'broken')), { at: 2 });
    const kept = await model.add(ip(3), success(bodyOf(1_000, 'kept')), { at: 3 });
    rmSync(join(storage.folder, `${gone.id}.json`));
    // A folder where the file should be: listed, but cannot be read as a file.
    rmSync(join(storage.folder, `${broken.id}.json`));
    mkdirSync(join(storage.folder, `${broken.id}.json`));

    const errors: string[] = [];
    const restarted = new LookupModel(storage, { onError: (what) => errors.push(what) });
    let changes = 0;
    restarted.onDidChange(() => (changes += 1));
    await restarted.load();
    assert.equal(restarted.entries.length, 3, 'every entry is still listed');
    assert.equal(restarted.answerMissing(gone.id), true, 'a missing file is found at load');
    assert.deepEqual(await restarted.answerOf(gone), { state: 'missing' });
    assert.equal(restarted.answerMissing(broken.id), false);
    const before = changes;
    assert.deepEqual(await restarted.answerOf(broken), { state: 'missing' });
    assert.equal(restarted.answerMissing(broken.id), true, 'an unreadable file is marked when read');
    assert.ok(changes > before, 'the view is told');
    assert.equal(await text(restarted, kept), pretty(bodyOf(1_000, 'kept')));
    assert.ok(errors.some((e) => e.includes('could not be read')), errors.join('; '));
  });

  it('shows an answer while its file is being written, and a lookup deleted meanwhile leaves nothing behind', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const write = storage.writeFile.bind(storage);
    storage.writeFile = async (name, t) => {
      await gate;
      return write(name, t);
    };
    const model = new LookupModel(storage);
    const seen = new Promise<void>((resolve) => model.onDidChange(resolve));
    const first = model.add(ip(1), success({ a: 1 }));
    const second = model.add(ip(2), success({ b: 2 }));
    await seen;
    await new Promise((resolve) => setImmediate(resolve));
    const [b, a] = model.entries;
    assert.equal(await text(model, a), pretty({ a: 1 }), 'the document opened right after the lookup has its answer');
    await model.delete(b.id);
    release();
    await Promise.all([first, second]);
    assert.deepEqual([...storage.files().keys()], [`${a.id}.json`]);
    assert.deepEqual(storage.keys(), [`bizdata.history.${a.id}`]);
  });

  it('two windows adding at once keep each other\'s entries', async () => {
    const a = new LookupModel(storage);
    const other = storage.window();
    const b = new LookupModel(other);
    await Promise.all([a.load(), b.load()]);
    for (let i = 0; i < 10; i++) {
      await Promise.all([a.add(ip(i), success({ window: 'a', i }), { at: 100 + i }), b.add(ip(100 + i), success({ window: 'b', i }), { at: 100 + i })]);
    }
    a.refresh();
    assert.equal(a.entries.length, 20, 'window a sees window b\'s lookups after reading again');
    const restarted = new LookupModel(storage);
    await restarted.load();
    assert.equal(restarted.entries.length, 20);
    for (const e of restarted.entries) assert.equal((await restarted.answerOf(e)).state, 'stored');
  });

  it('saved queries: each once, found by id, and capped with a message that says what to do', async () => {
    const model = new LookupModel(storage);
    const first = await model.save(ip(1));
    assert.equal(await model.save({ ...ip(1) }), first, 'the same query is kept once');
    for (let i = 2; i <= SAVED_LIMIT; i++) await model.save(ip(i));
    assert.equal(model.savedQueries.length, SAVED_LIMIT);
    await assert.rejects(model.save(ip(SAVED_LIMIT + 1)), (err: unknown) => err instanceof UserError && /holds 100 queries.*Delete a saved query/.test(err.message));
    assert.equal(await model.save(ip(5)), model.savedQueries[4], 'a query already saved is still found at the cap');
    await model.delete(first.id);
    assert.ok(await model.save(ip(SAVED_LIMIT + 1)));
    const restarted = new LookupModel(storage);
    assert.equal(restarted.savedQueries.length, SAVED_LIMIT);
    assert.equal(restarted.findSaved(model.savedQueries[0].id)?.query.kind, 'ip');
  });

  it('removes an old file no entry names, and leaves a young one (another window may be writing its entry)', async () => {
    const model = new LookupModel(storage);
    const old = `${(Date.now() - 2 * 86_400_000).toString(36)}-0123abcd.json`;
    const young = `${Date.now().toString(36)}-4567abcd.json`;
    await storage.writeFile(old, Buffer.from('{}'));
    await storage.writeFile(young, Buffer.from('{}'));
    await model.load();
    assert.deepEqual([...storage.files().keys()], [young]);
  });

  it('replaces secrets in a large answer written in slices', async () => {
    const token = 'tok-canary-0123456789abcdef';
    const model = new LookupModel(storage, { redact: (t) => redact(t, [token]) });
    const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i}${i === 39_000 ? ` ${token}` : ''}`).join('\n');
    assert.ok(lines.length > SLICE_CHARS);
    const entry = await model.add({ kind: 'request', request: { interfaceId: 'a', method: 'GET', url: 'https://api.example.com/v1/t', headers: {} } }, success(undefined, { text: lines }));
    const stored = storage.files().get(`${entry.id}.txt`) ?? '';
    assert.equal(stored, lines.replace(token, '<redacted>'));
  });

  it('writes and reads back a large answer of any characters exactly, slice by slice', async () => {
    // One long line (no line end to cut at) of characters of 1 to 4 bytes: slices and their bytes
    // must not split a character.
    const unit = 'a\u00e9\u20ac\u{1F600}"\\';
    const line = unit.repeat(Math.ceil((3 * SLICE_CHARS) / unit.length) + 1).slice(1);
    const model = new LookupModel(storage, { redact: (t) => t });
    const request: HistoryQuery = { kind: 'request', request: { interfaceId: 'a', method: 'GET', url: 'https://api.example.com/v1/t', headers: {} } };
    const entry = await model.add(request, success(undefined, { text: line }));
    assert.ok(readFileSync(join(storage.folder, `${entry.id}.txt`)).equals(Buffer.from(line, 'utf8')), 'the file is the answer\'s UTF-8');
    const restarted = new LookupModel(storage);
    assert.equal(await text(restarted, entry), line);
  });

  describe('against the sandbox: no credential or token is written', () => {
    let sb: Sandbox;
    let t: TestClient;
    before(async () => {
      sb = await sandbox();
    });
    after(() => sb.close());
    beforeEach(() => {
      t = testClient(sb.url);
    });
    afterEach(() => t.client.dispose());

    it('an answer that echoes the credentials and the token leaves them out of every record and file', async () => {
      const model = new LookupModel(storage, { redact: (x) => t.client.redact(x) });
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      const token = (await t.tokens.get(tokenOwner(endpointsFor(sb.url), GOOD.a)))?.value ?? '';
      assert.ok(token.length > 8);
      const echo = { echoed: { key: CANARY.consumerKey, secret: CANARY.consumerSecret, header: `Bearer ${token}`, raw: token } };
      await sb.admin('POST', 'faults', { type: 'respond', path: '/v1/duns-search/ip/', status: 200, body: echo, count: 1 });
      const a = ok(await t.client.lookupIp({ ip: '203.0.113.8' }));
      assert.ok(JSON.stringify(a.body).includes(token), 'the answer did echo the token');
      await model.add({ kind: 'ip', ip: '203.0.113.8' }, a);

      await sb.admin('POST', 'faults', { type: 'respond', path: '/V4.0/organizations', status: 401, body: { MatchResponse: { TransactionResult: { SeverityText: 'Error', ResultID: 'SC001', ResultText: `user ${CANARY.user} password ${CANARY.password}` } } }, count: 1 });
      const b: CallResult = await t.client.lookupOrganization({ country: 'GB', name: 'Acme' });
      await model.add({ kind: 'org', country: 'GB', name: 'Acme' }, b);

      const all = everything(storage);
      assert.ok(all.length >= 4);
      assertNoCanary(all, [token]);
    });
  });
});

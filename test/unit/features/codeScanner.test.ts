// The code scanner on its worker thread (dist/scanWorker.js, built before the unit tests): the same
// findings as the finder run inline, for a text of many slices, and cancellation and disposal that
// leave nothing waiting.
import * as assert from 'node:assert/strict';
import { CodeBook } from '../../../src/core/codes/codes';
import { lineSlicesOf, ScanCancelledError, SLICE_CHARS, slicesOf } from '../../../src/features/shared/codeScanner';
import { findCodes } from '../../../src/features/shared/findCodes';
import { matchResponse } from './codeResponses';
import { useScanner } from './scannerWorker';


/** A JSON array of `count` answers, every tenth failing with SC001 and the others CM000. */
function manyAnswers(count: number): string {
  return `[\n${Array.from({ length: count }, (_, i) => matchResponse(i % 10 === 0 ? 'SC001' : 'CM000')).join(',\n')}\n]`;
}

describe('CodeScanner', () => {
  const worker = useScanner();

  it('finds on the worker what the finder finds inline, across many slices', async () => {
    const scanner = worker();
    const text = manyAnswers(6000);
    assert.ok(text.length > 4 * SLICE_CHARS, `${text.length} characters`);
    const found = await scanner.scan(text);
    assert.deepEqual(found, findCodes(text));
    assert.equal(found.filter((f) => f.code === 'SC001').length, 600);
    // The worker stays for the next scan, and slices of different scans never mix.
    const [a, b] = await Promise.all([scanner.scan(matchResponse('SC006')), scanner.scan(text)]);
    assert.deepEqual(a.map((f) => f.code), ['SC006']);
    assert.equal(b.length, found.length);
  });

  it('describes codes with the catalog it is given (the user\'s codes file)', async () => {
    const scanner = worker();
    const text = '{"MatchResponse": {"TransactionResult": {"SeverityText": "Warning", "ResultID": "CM777", "ResultText": "from the service"}}}';
    const book = CodeBook.withUserCodes([{ code: 'CM777', text: 'Described by the user.', meaning: 'A test code.', action: 'Nothing.', severity: 'warning', recovery: 'none', interfaceName: 'B', source: 'user' }]);
    const [builtIn] = await scanner.scan(text);
    assert.equal(builtIn.known, false);
    const [described] = await scanner.scan(text, { book });
    // The service's own words first; the codes file's description is the meaning (and its action).
    assert.deepEqual([described.known, described.text, described.meaning, described.action], [true, 'from the service', 'A test code.', 'Nothing.']);
    assert.deepEqual(described, findCodes(text, book)[0]);
  });

  it('scans a text given as slices (a document read range by range) like the whole text', async () => {
    const scanner = worker();
    const text = manyAnswers(3000);
    const ranges = [text.slice(0, 1000), text.slice(1000, 700_000), text.slice(700_000)];
    assert.deepEqual(await scanner.scan(ranges), findCodes(text));
  });

  it('pretty-prints a large JSON answer in slices cut at line ends, and says when it is not JSON', async () => {
    const scanner = worker();
    const compact = JSON.stringify(JSON.parse(manyAnswers(6000)));
    const slices = await scanner.prettyPrint(compact);
    assert.ok(slices && slices.length > 2, `${slices?.length} slices`);
    assert.equal(slices.join(''), `${JSON.stringify(JSON.parse(compact), null, 2)}\n`);
    for (const slice of slices) assert.ok(slice.endsWith('\n'), 'a slice ends at a line end');
    assert.equal(await scanner.prettyPrint(`not json ${'x'.repeat(SLICE_CHARS)}`), undefined);
  });

  it('keeps a JSON answer as it came when indenting it would pass the size an editor can take', async () => {
    const scanner = worker();
    const compact = JSON.stringify(JSON.parse(manyAnswers(6000)));
    const kept = await scanner.prettyPrint(compact, { maxChars: compact.length + 10 });
    assert.equal(kept?.join(''), compact);
    const pretty = await scanner.prettyPrint(compact, { maxChars: compact.length * 3 });
    assert.equal(pretty?.join(''), `${JSON.stringify(JSON.parse(compact), null, 2)}\n`);
  });

  it('cuts slices at line ends where one is near, and anywhere in a line too long for one', () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n');
    const cut = [...lineSlicesOf(lines)];
    assert.equal(cut.join(''), lines);
    assert.ok(cut.slice(0, -1).every((s) => s.endsWith('\n') && s.length <= SLICE_CHARS));
    const long = 'y'.repeat(3 * SLICE_CHARS + 5);
    assert.deepEqual([...lineSlicesOf(long)].map((s) => s.length), [SLICE_CHARS, SLICE_CHARS, SLICE_CHARS, 5]);
    assert.deepEqual([...slicesOf(long)].map((s) => s.length), [SLICE_CHARS, SLICE_CHARS, SLICE_CHARS, 5]);
  });

  it('rejects a cancelled scan, and one in flight when disposed', async () => {
    const scanner = worker();
    const abort = new AbortController();
    const cancelled = scanner.scan(manyAnswers(6000), { signal: abort.signal });
    abort.abort();
    await assert.rejects(cancelled, ScanCancelledError);
    const pending = assert.rejects(scanner.scan(manyAnswers(6000)), ScanCancelledError);
    await scanner.dispose();
    await pending;
  });
});

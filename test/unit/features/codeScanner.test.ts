// The code scanner on its worker thread (dist/scanWorker.js, built before the unit tests): the same
// findings as the finder run inline, for a text of many slices, and cancellation and disposal that
// leave nothing waiting.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { CodeBook } from '../../../src/core/codes';
import { CodeScanner, ScanCancelledError, SLICE_CHARS } from '../../../src/features/shared/codeScanner';
import { findCodes } from '../../../src/features/shared/findCodes';
import { matchResponse } from './codeResponses';

const WORKER = join(__dirname, '..', '..', '..', '..', 'dist', 'scanWorker.js');

/** A JSON array of `count` answers, every tenth failing with SC001 and the others CM000. */
function manyAnswers(count: number): string {
  return `[\n${Array.from({ length: count }, (_, i) => matchResponse(i % 10 === 0 ? 'SC001' : 'CM000')).join(',\n')}\n]`;
}

describe('CodeScanner', () => {
  let scanner: CodeScanner;

  beforeEach(() => {
    scanner = new CodeScanner(WORKER);
  });

  afterEach(async () => {
    await scanner.dispose();
  });

  it('finds on the worker what the finder finds inline, across many slices', async () => {
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
    const text = '{"MatchResponse": {"TransactionResult": {"SeverityText": "Warning", "ResultID": "CM777", "ResultText": "from the service"}}}';
    const book = CodeBook.withUserCodes([{ code: 'CM777', text: 'Described by the user.', meaning: 'A test code.', action: 'Nothing.', severity: 'warning', recovery: 'none', interfaceName: 'B', source: 'user' }]);
    const [builtIn] = await scanner.scan(text);
    assert.equal(builtIn.known, false);
    const [described] = await scanner.scan(text, { book });
    assert.deepEqual([described.known, described.text], [true, 'Described by the user.']);
    assert.deepEqual(described, findCodes(text, book)[0]);
  });

  it('rejects a cancelled scan, and one in flight when disposed', async () => {
    const abort = new AbortController();
    const cancelled = scanner.scan(manyAnswers(6000), { signal: abort.signal });
    abort.abort();
    await assert.rejects(cancelled, ScanCancelledError);
    const pending = assert.rejects(scanner.scan(manyAnswers(6000)), ScanCancelledError);
    await scanner.dispose();
    await pending;
  });
});

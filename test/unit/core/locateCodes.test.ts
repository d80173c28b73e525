import * as assert from 'node:assert/strict';
import { codeAt, lineColumns, locateCodes } from '../../../src/core/codes/locateCodes';

const at = (text: string, f: { offset: number; length: number }): string => text.slice(f.offset, f.offset + f.length);

describe('recogniser: codes located in JSON text', () => {
  it('locates every documented shape, the range covering the code without quotes', () => {
    const text = JSON.stringify(
      {
        a: { error: { errorCode: '10001', errorMessage: 'Not found', errorDetails: [] } },
        b: { result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } },
        c: { error: 'invalid_request', error_description: 'Form refused. ErrorCode: 05007.' },
        d: { MatchResponse: { '@ServiceVersionNumber': '4.0', TransactionResult: { SeverityText: 'Error', ResultID: 'CM018', ResultText: 'x', ResultMessage: [{ ResultDescription: 'no match' }] } } },
        e: [{ TransactionResult: { SeverityText: 'Error', ResultID: 'CM001', ResultText: 'Invalid request' } }],
        f: { TransactionResult: { SeverityText: 'Error', ResultID: 'CM004' } },
      },
      null,
      2,
    );
    const found = locateCodes(text);
    assert.deepEqual(found.map((f) => [f.code, f.shape, f.severity]), [
      ['10001', 'errorObject', 'error'],
      ['00040', 'result', 'warning'],
      ['05007', 'oauth', 'error'],
      ['CM018', 'transactionResult', 'error'],
      ['CM001', 'transactionResult', 'error'],
      ['CM004', 'transactionResult', 'error'],
    ]);
    for (const f of found) assert.equal(at(text, f), f.code);
    assert.equal(found[0].text, 'Not found');
    assert.equal(found[0].known, true);
    assert.equal(found[1].status, 401);
    assert.equal(found[3].description, 'no match');
  });

  it("reads the service's text even when it follows the code", () => {
    const [f] = locateCodes('{"TransactionResult": {"ResultID": "ZZ900", "SeverityText": "Warning", "ResultText": "Later text"}}');
    assert.deepEqual([f.code, f.text, f.severity, f.known], ['ZZ900', 'Later text', 'warning', false]);
  });

  it('recovers what it can from malformed JSON and ignores bare "error" strings deep in other data', () => {
    assert.deepEqual(locateCodes('{"error": {"errorCode": "00040"').map((f) => f.code), ['00040'], 'a file cut short');
    assert.deepEqual(locateCodes('[{"error": {"errorCode": "00040"}}, {"x": ').map((f) => f.code), ['00040']);
    assert.deepEqual(locateCodes('{"items": [{"status": {"error": "timeout"}}]}'), []);
    assert.deepEqual(locateCodes('{"name": "x"}'), []);
  });

  it('finds the code under the cursor, and nothing elsewhere', () => {
    const text = '{"result": {"errorCode": "00040", "errorMessage": "Access token expired"}}';
    const o = text.indexOf('00040');
    for (const offset of [o, o + 2, o + 5]) assert.equal(codeAt(text, offset)?.code, '00040', String(offset));
    assert.equal(codeAt(text, text.indexOf('errorMessage') + 2), undefined);
    assert.equal(codeAt(text, text.indexOf('Access')), undefined);
  });

  it('turns offsets into lines and columns', () => {
    const text = 'ab\ncd\n\nef';
    assert.deepEqual(lineColumns(text, [8, 0, 4]), [{ line: 3, column: 1 }, { line: 0, column: 0 }, { line: 1, column: 1 }]);
  });
});

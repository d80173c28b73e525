import * as assert from 'node:assert/strict';
import { allCodes } from '../../../src/core/codes/codes';
import { codeAt, findCodes, mayHoldCodes } from '../../../src/features/shared/findCodes';
import { interfaceAError, matchResponse } from './codeResponses';

function textAt(text: string, f: { offset: number; length: number }): string {
  return text.slice(f.offset, f.offset + f.length);
}

describe('findCodes', () => {
  it('finds every catalog code with its severity, the spec text and the action', () => {
    for (const info of allCodes()) {
      const text = info.interfaceName === 'A' ? interfaceAError(info.code) : matchResponse(info.code);
      const found = findCodes(text);
      assert.equal(found.length, 1, info.code);
      const [f] = found;
      assert.equal(f.code, info.code);
      assert.equal(textAt(text, f), info.code, 'range covers the code inside the quotes');
      const expected = info.code === 'CM000' ? 'none' : info.code === '00040' ? 'warning' : 'error';
      assert.equal(f.display, expected, info.code);
      assert.ok(f.message.includes(info.text), `${info.code} message carries the spec text`);
      assert.ok(f.message.includes(info.action), `${info.code} message carries the action`);
      assert.equal(f.info, info);
    }
  });

  it('finds a top-level TransactionResult (failed authentication call)', () => {
    const text = '{"TransactionDetail":{},"TransactionResult":{"SeverityText":"Fatal","ResultID":"SC001"}}';
    const [f] = findCodes(text);
    assert.equal(f.code, 'SC001');
    assert.equal(f.shape, 'transactionResult');
    assert.equal(textAt(text, f), 'SC001');
  });

  it('finds codes at any depth and inside arrays', () => {
    const text = JSON.stringify({
      runs: [
        { response: { MatchResponse: { TransactionResult: { ResultID: 'SC006' } } } },
        { response: { error: { errorCode: '00040' } } },
        [{ TransactionResult: { ResultID: 'CM000' } }],
      ],
    });
    assert.deepEqual(
      findCodes(text).map((f) => [f.code, f.shape]),
      [
        ['SC006', 'transactionResult'],
        ['00040', 'errorObject'],
        ['CM000', 'transactionResult'],
      ],
    );
  });

  it('ignores code-like values outside the two shapes', () => {
    const text = JSON.stringify({
      ResultID: 'SC001',
      errorCode: '00040',
      TransactionResult: { ResultText: 'SC001', Nested: { ResultID: 'SC001' } },
      error: { message: '00040', inner: { errorCode: 'SC001' } },
      list: ['SC001', { ResultID: 'SC001' }],
      other: { TransactionResult: { ResultID: 42 } },
    });
    assert.deepEqual(findCodes(text), []);
  });

  it("flags an unknown SC code as an error with the service's own text, saying it is not in the catalog", () => {
    const text = matchResponse('SC999');
    const [f] = findCodes(text);
    assert.equal(f.code, 'SC999');
    assert.equal(f.display, 'error');
    assert.equal(f.info, undefined);
    assert.match(f.message, /^SC999: x \(SC999 is not in the catalog; the text is the service's own\) — /);
  });

  it('flags every code the catalog does not name, with a severity from SeverityText or the shape', () => {
    const [a] = findCodes(interfaceAError('invalid_token'));
    assert.deepEqual([a.code, a.display, a.text], ['invalid_token', 'error', 'text']);
    const [b] = findCodes(matchResponse('XY123'));
    assert.deepEqual([b.code, b.display, b.known], ['XY123', 'error', false]);
    const [c] = findCodes('{"TransactionResult": {"ResultID": "CM021", "SeverityText": "Information", "ResultText": "Partial"}}');
    assert.deepEqual([c.display, c.message.startsWith('CM021: Partial (CM021 is not in the catalog')], ['info', true]);
  });

  it('finds the shapes the service documents beyond the spec, and the codes it documents', () => {
    const text = JSON.stringify({
      a: { result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } },
      b: { error: 'invalid_request', error_description: 'Refused. ErrorCode: 05007' },
      c: { MatchResponse: { TransactionResult: { SeverityText: 'Error', ResultID: 'CM018', ResultMessage: [{ ResultDescription: 'no match' }] } } },
    });
    assert.deepEqual(findCodes(text).map((f) => [f.code, f.shape, f.display, textAt(text, f)]), [
      ['00040', 'result', 'warning', '00040'],
      ['05007', 'oauth', 'error', '05007'],
      ['CM018', 'transactionResult', 'error', 'CM018'],
    ]);
  });

  it('recovers codes from malformed JSON and JSON with comments', () => {
    const truncated = '{"MatchResponse": {"TransactionResult": {"ResultID": "SC005", "ResultText": "Max';
    assert.deepEqual(findCodes(truncated).map((f) => f.code), ['SC005']);
    const broken = '{"error": {"errorCode": "00040",, "x": }, "TransactionResult": {"ResultID": "SC003",}}';
    assert.deepEqual(findCodes(broken).map((f) => f.code), ['00040', 'SC003']);
    const commented = '// saved\n{ /* why */ "TransactionResult": { "ResultID": "SC004" } }';
    const [f] = findCodes(commented);
    assert.equal(textAt(commented, f), 'SC004');
    assert.deepEqual(findCodes('not json at all "ResultID"'), []);
    assert.deepEqual(findCodes(''), []);
  });

  it('skips text that cannot hold a code without parsing it', () => {
    assert.equal(mayHoldCodes('{"name": "x"}'), false);
    assert.equal(mayHoldCodes('{"ResultID": "CM000"}'), true);
    assert.equal(mayHoldCodes('{"errorCode": "00040"}'), true);
  });

  it('processes a 10 MB document and finds the codes in it', () => {
    const record = { name: 'Example Trading Ltd', address: { line: '1 Main Street', city: 'Springfield' }, score: 7 };
    const items: unknown[] = [];
    let size = 0;
    while (size < 10 * 1024 * 1024) {
      const item = { record, TransactionResult: { ResultID: items.length % 1000 === 0 ? 'SC006' : 'CM000' } };
      items.push(item);
      size += JSON.stringify(item).length + 1;
    }
    const text = JSON.stringify({ items });
    assert.ok(text.length >= 10 * 1024 * 1024);
    const found = findCodes(text);
    assert.equal(found.length, items.length);
    assert.equal(found.filter((f) => f.code === 'SC006').length, Math.ceil(items.length / 1000));
    const last = found[found.length - 1];
    assert.equal(textAt(text, last), last.code);
  });
});

describe('codeAt', () => {
  it('returns the code under the cursor anywhere inside its value', () => {
    const text = matchResponse('SC001');
    const start = text.indexOf('"SC001"');
    for (let o = start; o <= start + 7; o++) {
      const f = codeAt(text, o);
      assert.equal(f?.code, 'SC001', `offset ${o - start}`);
      assert.equal(textAt(text, f), 'SC001');
    }
  });

  it('returns nothing on keys, other values and code-like text elsewhere', () => {
    const text = '{"TransactionResult": {"ResultID": "SC001", "ResultText": "SC001"}, "note": "SC001"}';
    assert.equal(codeAt(text, text.indexOf('ResultID') + 2), undefined);
    assert.equal(codeAt(text, text.indexOf('"SC001", "note"') - 3), undefined);
    assert.equal(codeAt(text, text.lastIndexOf('SC001') + 1), undefined);
  });

  it('finds Interface A codes and every catalog code', () => {
    for (const info of allCodes()) {
      const text = info.interfaceName === 'A' ? interfaceAError(info.code) : matchResponse(info.code);
      assert.equal(codeAt(text, text.indexOf(`"${info.code}"`) + 2)?.info, info);
    }
  });
});

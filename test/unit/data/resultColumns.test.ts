import * as assert from 'node:assert/strict';
import { columnCell, parseColumnFlags, spreadsheetSafe, type ResultColumn } from '../../../src/core/data/resultColumns';

const ANSWER = { MatchResponse: { MatchResponseDetail: { CandidateMatchedQuantity: 2, MatchCandidate: [{ DUNSNumber: '123' }, { DUNSNumber: '456' }] } } };

function column(flag: string): ResultColumn {
  const c = parseColumnFlags([flag]);
  if (!c.ok) assert.fail(c.message);
  return c.columns[0];
}

describe('data results: --column cells', () => {
  it('reads NAME=JSONPATH, splitting at the first =', () => {
    const c = parseColumnFlags([' duns = $.MatchResponse.MatchResponseDetail.MatchCandidate[0].DUNSNumber', 'big=$..MatchCandidate[?@.DUNSNumber == "456"].DUNSNumber']);
    assert.ok(c.ok);
    assert.deepEqual(c.columns.map((x) => x.name), ['duns', 'big']);
    assert.equal(c.columns[1].path, '$..MatchCandidate[?@.DUNSNumber == "456"].DUNSNumber');
  });

  it('refuses a bad flag before anything is sent, naming it', () => {
    const refusal = (...flags: string[]): string => {
      const c = parseColumnFlags(flags);
      assert.equal(c.ok, false);
      return c.ok ? '' : c.message;
    };
    assert.equal(refusal('duns'), '--column duns: write it as NAME=JSONPATH, as --column duns=$.MatchResponse.MatchResponseDetail.MatchCandidate[0].DUNSNumber.');
    assert.match(refusal('=$.a'), /^--column =\$\.a: write it as NAME=JSONPATH/);
    assert.match(refusal('duns=$.a[', 'x=$.b'), /^--column duns=\$\.a\[: "\$\.a\[" is not a JSONPath \(RFC 9535\) at character \d+\./);
    assert.match(refusal('duns=MatchResponse.x'), /^--column duns=MatchResponse\.x: .*A path starts with \$/);
    assert.match(refusal('n=$[?match(@.name, "a.*")]'), /^--column n=\$\[\?match\(@\.name, "a\.\*"\)\]: .*calls match\(\)/);
    assert.match(refusal('a=$.x', 'a=$.y'), /^--column a=\$\.y: two --column flags name the column "a"/);
  });

  it('gives one value as text, several or a non-string as JSON, and nothing as an empty cell', () => {
    assert.equal(columnCell(ANSWER, column('d=$.MatchResponse.MatchResponseDetail.MatchCandidate[0].DUNSNumber')), '123');
    assert.equal(columnCell(ANSWER, column('d=$..DUNSNumber')), '["123","456"]');
    assert.equal(columnCell(ANSWER, column('q=$..CandidateMatchedQuantity')), '2');
    assert.equal(columnCell(ANSWER, column('n=$.MatchResponse.nothing')), '');
    assert.equal(columnCell(undefined, column('n=$.a')), '');
    assert.equal(columnCell(ANSWER, column('n=$.MatchResponse.constructor')), '');
  });

  it('makes a cell that a spreadsheet would run as a formula show as text', () => {
    for (const cell of ['=1+1', '+1', '-5', '@SUM(A1)', '\tx', '\rx']) assert.equal(spreadsheetSafe(cell), `'${cell}`);
    for (const cell of ['Acme', '', ' =x', "'quoted", '1-2']) assert.equal(spreadsheetSafe(cell), cell);
  });
});

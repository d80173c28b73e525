import * as assert from 'node:assert/strict';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { TestAnswers } from '../../../src/features/state/testAnswers';
import { evaluateAssertion, parseAssertion, type Assertion } from '../../../src/core/requests/assertions';
import { diffOf, requestTests, runOrder } from '../../../src/features/testing/requestTests';

const TEXT = [
  '@country = {{lookup.response.body.$.country}}',
  '### token-less lookup',
  '# @name lookup',
  'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7',
  '',
  '### unrelated',
  'GET {{baseUrl}}/v1/other',
  '',
  '### search, chained through a file variable',
  '# @name search',
  'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code={{country}}',
  '',
  '### detail, chained on the search',
  'GET {{legacyUrl}}/V6.0/organizations/{{search.response.body.$.duns}}',
].join('\n');


describe('request files as tests (plain)', () => {
  const file = parseRequestFile(TEXT);

  it('makes a test of each request, labelled by its name or title, from its request line to its block\'s end, and of each assertion', () => {
    const withChecks = parseRequestFile('GET {{baseUrl}}/v1/x\n?? status == 200\n?? code == CM000\n');
    assert.deepEqual(
      requestTests(withChecks)[0].assertions.map((a) => [a.key, a.label, a.assertion.line]),
      [
        ['a0', '?? status == 200', 1],
        ['a1', '?? code == CM000', 2],
      ],
    );
    assert.deepEqual(
      requestTests(file).map((t) => [t.key, t.label, t.firstLine, t.lastLine]),
      [
        ['r0', 'lookup', 3, 4],
        ['r1', 'unrelated', 6, 7],
        ['r2', 'search', 10, 11],
        ['r3', 'detail, chained on the search', 13, 13],
      ],
    );
  });

  it('runs a chosen request after the named requests it chains on, directly or through a file variable, in file order', () => {
    assert.deepEqual(runOrder(TEXT, file, new Set([3])).map((r) => r.index), [0, 2, 3]);
    assert.deepEqual(runOrder(TEXT, file, new Set([1])).map((r) => r.index), [1]);
    assert.deepEqual(runOrder(TEXT, file, new Set([3, 1, 0, 2])).map((r) => r.index), [0, 1, 2, 3]);
  });

  it('offers a diff for an equality, with text values unquoted, and none for other operators', () => {
    const outcome = (line: string, body: unknown) => evaluateAssertion(parseAssertion(line, 0) as Assertion, { status: 200, headers: {}, body, durationMs: 3 });
    assert.deepEqual(diffOf(outcome('?? body $.name == Amber Works', { name: 'Amber Ltd' })), { expected: 'Amber Works', actual: 'Amber Ltd' });
    assert.deepEqual(diffOf(outcome('?? body $.n == 3', { n: 2 })), { expected: '3', actual: '2' });
    assert.equal(diffOf(outcome('?? body $.items length == 3', { items: [1] })), undefined);
    assert.equal(diffOf(outcome('?? body $.n < 3', { n: 4 })), undefined);
  });

  it('finds the answer of an assertion through its request, and keeps only the latest answers', () => {
    const answers = new TestAnswers();
    answers.set('file:///w/a.bizdata.http#r0', 'bizdata-result:/1/x.json');
    assert.equal(answers.of('file:///w/a.bizdata.http#r0/a2'), 'bizdata-result:/1/x.json');
    assert.equal(answers.of('file:///w/a.bizdata.http#r1'), undefined);
    for (let i = 0; i < 1001; i++) answers.set(`t${i}`, `u${i}`);
    assert.equal(answers.of('file:///w/a.bizdata.http#r0'), undefined, 'the oldest answer was dropped');
    assert.equal(answers.of('t1000'), 'u1000');
  });
});

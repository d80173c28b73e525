// Assertions of request files (`?? …`, httpYac's syntax): the parser with each refusal at its line,
// and the evaluator with every operator, paths into arrays, missing paths and bodies that are not JSON.
import * as assert from 'node:assert/strict';
import { answerOf, evaluateAssertion, evaluateAssertions, parseAssertion, requestPassed, WITHHELD, type Answer, type Assertion } from '../../../src/core/requests/assertions';
import { SecretRegistry } from '../../../src/core/redact';
import { jsonPath, jsonPathProblem } from '../../../src/core/requests/jsonPath';
import { parseRequestFile } from '../../../src/core/requests/requestFile';

function parsed(text: string): Assertion {
  const a = parseAssertion(text, 7);
  assert.ok('subject' in a, `refused: ${'message' in a ? a.message : ''}`);
  return a;
}

function refusal(text: string): string {
  const a = parseAssertion(text, 4);
  assert.ok(!('subject' in a), `accepted: ${text}`);
  assert.equal(a.span.line, 4);
  return a.message;
}

const MATCH: Answer = {
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-count': '3' },
  body: {
    candidatesMatchedQuantity: 2,
    matchCandidates: [
      { organization: { duns: '804735132', primaryName: 'Amber Works', numberOfEmployees: 42 } },
      { organization: { duns: '123456789', primaryName: 'Cobalt Forge', numberOfEmployees: 7 } },
    ],
    tags: ['a', 'b', 3],
    empty: [],
    nothing: null,
    flag: true,
    'odd key': 'x',
  },
  code: 'CM000',
  durationMs: 123.4,
};

function check(text: string, answer: Answer | undefined = MATCH) {
  return evaluateAssertion(parsed(`?? ${text}`), answer);
}

function passes(text: string, answer: Answer | undefined = MATCH): void {
  const o = check(text, answer);
  assert.ok(o.passed, `${text}: ${o.message}`);
}

function fails(text: string, actual: string, answer: Answer | undefined = MATCH): void {
  const o = check(text, answer);
  assert.ok(!o.passed, `${text} passed`);
  assert.equal(o.actual, actual, text);
}

describe('request file assertions', () => {
  it('reads the subject, header name, JSONPath, length and value of each form', () => {
    const a = parsed('?? body $.matchCandidates[0].organization.duns exists');
    assert.deepEqual([a.subject, a.path, a.operator, a.expected, a.line, a.length], ['body', '$.matchCandidates[0].organization.duns', 'exists', undefined, 7, false]);
    const h = parsed('  ?? header Content-Type includes json');
    assert.deepEqual([h.subject, h.header, h.operator, h.expected, h.span.start], ['header', 'Content-Type', 'includes', 'json', 2]);
    const l = parsed('?? body $.items length == 3');
    assert.deepEqual([l.path, l.length, l.operator, l.expected], ['$.items', true, '==', '3']);
    // A path with spaces inside its brackets and quotes is one path.
    const q = parsed(`?? body $['odd key'][?@.n > 1] isArray`);
    assert.deepEqual([q.path, q.operator], [`$['odd key'][?@.n > 1]`, 'isArray']);
    assert.equal(parsed('?? body == {"a": [1, 2]}').expected, '{"a": [1, 2]}');
    assert.equal(parsed('?? code matches /^CM0/i').expected, '/^CM0/i');
  });

  it('refuses what it cannot check, at its line, saying what to write instead', () => {
    assert.match(refusal('?? js response.parsedBody.id == 3'), /runs JavaScript, and request files here never run code.*"\?\? body \$\.path == value"/);
    assert.match(refusal('??'), /needs something to check: write it as "\?\? status == 200"/);
    assert.match(refusal('?? xpath /a/b == 1'), /"xpath" is not something an assertion can check/);
    assert.match(refusal('?? status'), /"\?\? status" has no operator; write one of ==/);
    assert.match(refusal('?? status === 200'), /"===" is not an operator/);
    assert.match(refusal('?? header content-type contains json'), /"contains" is not an operator here: write "includes" instead/);
    assert.match(refusal('?? header content-type startsWith application'), /write "matches \/\^text\/" instead of "startsWith text"/);
    assert.match(refusal('?? body $.flag isTrue'), /write "== true" instead of "isTrue"/);
    assert.match(refusal('?? header'), /needs a header name/);
    assert.match(refusal('?? body $.a[ exists'), /"\$\.a\[ exists" is not a JSONPath \(RFC 9535\) at character 6/);
    assert.match(refusal('?? body $.odd-key exists'), /in brackets and quotes, as \$\['odd-key'\]/);
    assert.match(refusal('?? duration < soon'), /"<" compares numbers; write a number after it, not "soon"/);
    assert.match(refusal('?? status == '), /"==" needs a value after it, as "\?\? status == 200"/);
    assert.match(refusal('?? body $.a exists yes'), /"exists" takes no value; delete "yes"/);
    assert.match(refusal('?? body $.a matches ^CM0'), /a regular expression between slashes, as "matches \/\^CM0\/"/);
    assert.match(refusal('?? body $.a matches /(/'), /"\/\(\/" is not a regular expression: Invalid regular expression/);
    assert.match(refusal('?? body $.a matches /a/g'), /between slashes/);
    assert.match(refusal('?? status length == 3'), /"length" counts the items of a list/);
    assert.match(refusal('?? body $.items length includes 3'), /"length" is a number: compare it with ==/);
    assert.match(refusal('?? body $.items length exists'), /"length" is a number/);
    assert.match(refusal('?? body $.id == {{login.response.body.$.id}}'), /variables \(\{\{…\}\}\) are not replaced in them/);
  });

  it("withholds an actual value that holds a secret of the run, judged whole before it is shortened (issue 25)", () => {
    const secrets = new SecretRegistry();
    secrets.add('sbx.secret-token-value');
    const redact = (t: string): string => secrets.redact(t);
    // The secret starts past the 200 characters an actual value is cut to: the cut would show a piece of it.
    const long = `${'x'.repeat(190)} Bearer%2520sbx.secret-token-value`;
    const answer: Answer = { status: 200, headers: { 'x-echo': 'sbx.secret-token-value' }, body: { echo: long, other: 'plain' }, durationMs: 1 };
    const [body, header, plain, whole] = evaluateAssertions(['?? body $.echo == x', '?? header x-echo == x', '?? body $.other == x', '?? body == x'].map((t) => parsed(t)), answer, redact);
    assert.equal(body.actual, WITHHELD);
    assert.equal(body.message, `body $.echo: expected == x, actual ${WITHHELD}`);
    assert.equal(header.actual, WITHHELD);
    assert.equal(plain.actual, '"plain"', 'a value without a secret is shown');
    assert.equal(whole.actual, WITHHELD);
    assert.ok(!body.passed && !header.passed);
  });

  it('judges ==, != and the numeric comparisons', () => {
    passes('status == 200');
    fails('status == 404', '200');
    passes('status != 404');
    fails('status != 200', '200');
    passes('body $.candidatesMatchedQuantity >= 1');
    passes('body $.candidatesMatchedQuantity > 1');
    fails('body $.candidatesMatchedQuantity > 2', '2');
    passes('body $.candidatesMatchedQuantity <= 2');
    fails('body $.candidatesMatchedQuantity < 2', '2');
    passes('duration < 2000');
    fails('duration < 100', '123');
    // Numbers sent as text compare as numbers; a text that is no number fails, named.
    passes('header x-count >= 3');
    fails('body $.matchCandidates[0].organization.primaryName > 1', '"Amber Works"');
    // Text is compared as text, whether or not the value is written in quotes; other values as JSON.
    passes('body $.matchCandidates[0].organization.duns == 804735132');
    passes('body $.matchCandidates[0].organization.primaryName == "Amber Works"');
    passes('body $.matchCandidates[0].organization.primaryName == Amber Works');
    passes('body $.flag == true');
    fails('body $.flag == "true"', 'true');
    passes('body $.nothing == null');
    passes('body $.tags == ["a", "b", 3]');
    passes('code == CM000');
    fails('code == SC005', '"CM000"');
  });

  it('judges exists, !exists, includes, matches, isArray and length', () => {
    passes('body $.matchCandidates[1].organization.duns exists');
    passes('body $.nothing exists');
    fails('body $.matchCandidates[2] exists', '(missing)');
    passes('body $.matchCandidates[2] !exists');
    fails('body $.flag !exists', 'true');
    passes('header content-type includes json');
    fails('header content-type includes xml', '"application/json; charset=utf-8"');
    fails('header x-missing exists', '(missing)');
    passes('header X-Missing !exists');
    passes('body $.tags includes b');
    passes('body $.tags includes 3');
    fails('body $.tags includes c', '["a","b",3]');
    passes('code matches /^CM\\d{3}$/');
    passes('body $.matchCandidates[0].organization.primaryName matches /amber/i');
    passes('body $.candidatesMatchedQuantity matches /^2$/');
    fails('body $.matchCandidates[0].organization matches /Amber/', '{"duns":"804735132","primaryName":"Amber Works","numberOfEmployees":42}');
    passes('body $.matchCandidates isArray');
    fails('body $.matchCandidates[0] isArray', '{"organization":{"duns":"804735132","primaryName":"Amber Works","numberOfEmployees":42}}');
    passes('body $.matchCandidates length == 2');
    passes('body $.empty length == 0');
    passes('body $.matchCandidates[0].organization.duns length == 9');
    fails('body $.matchCandidates length > 2', '2');
    fails('body $.flag length == 1', 'true (no length: not a list or a text)');
    fails('body $.absent length == 0', '(missing)');
  });

  it('runs "matches" in linear time: a catastrophic pattern against a long text answers instead of hanging', () => {
    // JavaScript's RegExp backtracks through 2^n splits of the a's here, and never answers.
    const long: Answer = { status: 200, headers: {}, body: { x: `${'a'.repeat(50_000)}b`, y: 'a'.repeat(50_000) }, durationMs: 1 };
    fails('body $.x matches /^(a+)+$/', `"${'a'.repeat(199)}…`, long);
    passes('body $.y matches /^(a+)+$/', long);
    fails('body $.x matches /^(a|aa)*$/', `"${'a'.repeat(199)}…`, long);
    fails('body $.x matches /(x+x+)+y/', `"${'a'.repeat(199)}…`, long);
  });

  it('takes JavaScript patterns RE2 reads alike: classes, escapes, named groups, flags', () => {
    passes('body $.matchCandidates[0].organization.duns matches /^\\d{9}$/');
    passes('body $.matchCandidates[0].organization.primaryName matches /^(?<first>\\w+)\\s[A-Z]/');
    passes('body $.matchCandidates[0].organization.primaryName matches /\\u0041mber/');
    passes('header content-type matches /^application\\/json/');
    passes('body $.matchCandidates[0].organization.primaryName matches /AMBER WORKS/i');
    passes('body matches /^a.b$/s', { status: 200, headers: {}, text: 'a\nb', durationMs: 1 });
    fails('body matches /^a.b$/', '"a\\nb"', { status: 200, headers: {}, text: 'a\nb', durationMs: 1 });
    passes('body matches /^b$/m', { status: 200, headers: {}, text: 'a\nb', durationMs: 1 });
  });

  it('refuses, at its line, a pattern that needs backtracking, saying what to write instead', () => {
    assert.match(refusal('?? body $.a matches /(ab)\\1/'), /"\/\(ab\)\\1\/" refers back to a group \(\\1\).*Write the repeated text out \(\/\(ab\)ab\/ rather than \/\(ab\)\\1\/\)/);
    assert.match(refusal('?? body $.a matches /(?<x>a)\\k<x>/'), /refers back to a group \(\\k<x>\)/);
    assert.match(refusal('?? body $.a matches /CM(?=0)/'), /has a lookahead \(\(\?=…\).*Match the text itself instead/);
    assert.match(refusal('?? body $.a matches /CM(?!0)/'), /has a lookahead \(\(\?!…\)/);
    assert.match(refusal('?? body $.a matches /(?<=C)M/'), /has a lookbehind \(\(\?<=…\)/);
    assert.match(refusal('?? body $.a matches /(?<!C)M/'), /has a lookbehind \(\(\?<!…\)/);
    // What JavaScript takes and RE2 cannot otherwise: refused with RE2's reason, never run on RegExp.
    assert.match(refusal('?? body $.a matches /a{1001}/'), /"\/a\{1001\}\/" is not a regular expression assertions take \(they run on RE2, .*invalid repeat count/);
    // The same characters inside a class or escaped are text, not backreferences or lookarounds.
    assert.equal(parsed('?? body $.a matches /[(?=]\\(?=x\\)/').expected, '/[(?=]\\(?=x\\)/');
    passes('body $.x matches /^\\(\\?=1\\)$/', { status: 200, headers: {}, body: { x: '(?=1)' }, durationMs: 1 });
  });

  it('reads paths into arrays: an index, from the end, a wildcard, a filter, a descent', () => {
    passes('body $.matchCandidates[-1].organization.primaryName == Cobalt Forge');
    passes('body $.matchCandidates[*].organization.duns == ["804735132", "123456789"]');
    passes('body $.matchCandidates[*].organization.duns includes 123456789');
    passes('body $.matchCandidates[?@.organization.numberOfEmployees > 10].organization.primaryName == Amber Works');
    passes('body $..numberOfEmployees length == 2');
    passes(`body $['odd key'] == x`);
    fails('body $.matchCandidates[?@.organization.numberOfEmployees > 100] exists', '(missing)');
  });

  it('never reads what every object has', () => {
    fails('body $.matchCandidates.length exists', '(missing)');
    fails('body $.constructor exists', '(missing)');
    fails('header constructor exists', '(missing)');
    assert.equal(jsonPath({ a: {} }, '$.a.__proto__'), undefined);
  });

  it('reads bodies that are not JSON as text, and says so where a path needs JSON', () => {
    const text: Answer = { status: 200, headers: { 'content-type': 'text/plain' }, text: 'all good', durationMs: 5 };
    passes('body includes good', text);
    passes('body == all good', text);
    passes('body length == 8', text);
    passes('body matches /^all/', text);
    fails('body $.a exists', '(the body is not JSON)', text);
    passes('body $.a !exists', text);
    const empty: Answer = { status: 204, headers: {}, durationMs: 5 };
    fails('body exists', '(missing)', empty);
    fails('body $.a == 1', '(no body)', empty);
    passes('status == 204', empty);
  });

  it('fails every assertion when no answer came', () => {
    const [o] = evaluateAssertions([parsed('?? status == 200')], undefined);
    assert.deepEqual([o.passed, o.actual, o.expected, o.line, o.message], [false, '(no answer)', '== 200', 7, 'status: expected == 200, actual (no answer)']);
    assert.equal(check('body $.x length >= 1').message, 'body $.x: expected length >= 1, actual (missing)');
  });

  it('passes a request without assertions only when its answer was a success', () => {
    assert.equal(requestPassed([], true), true);
    assert.equal(requestPassed([], false), false);
    const failed = evaluateAssertions([parsed('?? status == 400'), parsed('?? code == invalid_request')], { status: 400, headers: {}, code: 'invalid_request', durationMs: 1 });
    assert.equal(requestPassed(failed, false), true);
    assert.equal(requestPassed([...failed, check('status == 404')], true), false);
  });

  it('takes the answer of a failed call, with its status, headers, body and code', () => {
    const request = { method: 'GET', url: 'http://x/', headers: {} };
    const a = answerOf({ ok: false, kind: 'api', status: 400, code: 'invalid_request', text: 't', advice: 'a', body: { e: 1 }, headers: { 'x-a': '1' }, durationMs: 9, request });
    assert.deepEqual(a, { status: 400, headers: { 'x-a': '1' }, body: { e: 1 }, code: 'invalid_request', durationMs: 9 });
    assert.equal(answerOf({ ok: false, kind: 'network', text: 't', advice: 'a', durationMs: 9 }), undefined);
    assert.deepEqual(answerOf({ ok: true, status: 200, body: undefined, text: 'hi', durationMs: 3, request, headers: {} }), { status: 200, headers: {}, body: undefined, text: 'hi', code: undefined, durationMs: 3 });
  });

  it('names a JSONPath that is not one', () => {
    assert.equal(jsonPathProblem('$.a[0]'), undefined);
    assert.match(jsonPathProblem('a.b') ?? '', /A path starts with \$/);
  });
});

describe('request file parser: assertion lines', () => {
  it('attaches ?? lines to their request with their lines, and keeps them out of the headers and the body', () => {
    const text = [
      '# @name find',
      'POST {{legacyUrl}}/V4.0/things',
      '?? status == 200',
      'Content-Type: application/json',
      '',
      '{"a": 1}',
      '',
      '?? body $.a == 1',
      '?? header content-type includes json',
      '',
      '###',
      'GET {{baseUrl}}/v1/x',
      '',
      '?? code == CM000',
    ].join('\n');
    const f = parseRequestFile(text);
    assert.deepEqual(f.problems, []);
    const [a, b] = f.requests;
    assert.deepEqual(a.assertions.map((x) => [x.line, x.subject]), [[2, 'status'], [7, 'body'], [8, 'header']]);
    assert.deepEqual(a.headers.map((h) => h.name), ['Content-Type']);
    assert.equal(a.body, '{"a": 1}');
    assert.deepEqual(b.assertions.map((x) => [x.line, x.text]), [[13, 'code == CM000']]);
    assert.equal(b.body, undefined);
  });

  it('refuses a bad assertion, and one above its request line, at their lines', () => {
    const f = parseRequestFile(['?? status == 200', 'GET {{baseUrl}}/v1/x', '?? js response.ok', '?? status == 200'].join('\n'));
    assert.deepEqual(
      f.problems.map((p) => [p.span.line, p.code, p.severity]),
      [
        [0, 'assertion', 'error'],
        [2, 'assertion', 'error'],
      ],
    );
    assert.match(f.problems[0].message, /move it below the request line/);
    assert.match(f.problems[1].message, /runs JavaScript/);
    assert.equal(f.requests[0].url, '{{baseUrl}}/v1/x');
    assert.deepEqual(f.requests[0].assertions.map((x) => x.line), [3]);
  });

  it('refuses a backreference or a lookaround in "matches" at its line, before anything is sent', () => {
    const f = parseRequestFile(['GET {{baseUrl}}/v1/x', '?? status == 200', '?? body $.a matches /(a)\\1/', '?? header x matches /a(?!b)/'].join('\n'));
    assert.deepEqual(
      f.problems.map((p) => [p.span.line, p.code, p.severity]),
      [
        [2, 'assertion', 'error'],
        [3, 'assertion', 'error'],
      ],
    );
    assert.match(f.problems[0].message, /refers back to a group/);
    assert.match(f.problems[1].message, /has a lookahead/);
  });
});

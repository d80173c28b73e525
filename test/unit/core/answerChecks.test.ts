// The grammar and the pure judging of `?? schema` and `?? snapshot` (issue 36): what a line takes and
// refuses at its place, `# @snapshot-ignore`, how a schema's draft is chosen and what a failure names,
// how a snapshot is named, what it leaves out, and what its verdict says; a snapshot is never taken
// from an answer that fails the request's other assertions.
import * as assert from 'node:assert/strict';
import { evaluateAssertions, parseAssertion, type Answer, type Assertion } from '../../../src/core/requests/assertions';
import type { AnswerChecks } from '../../../src/core/requests/answerChecks';
import { compileJsonSchema } from '../../../src/core/requests/jsonSchema';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { judgeSchema } from '../../../src/core/requests/schemaCheck';
import { DEFAULT_SNAPSHOT_IGNORE, differencesOf, judgeSnapshot, snapshotName, snapshotWriting, withoutIgnored, type LoadedSnapshot } from '../../../src/core/requests/snapshotCheck';

function parsed(line: string): Assertion {
  const a = parseAssertion(line, 4);
  assert.ok('subject' in a, `refused: ${'message' in a ? a.message : ''}`);
  return a;
}

function refused(line: string): string {
  const a = parseAssertion(line, 0);
  assert.ok('message' in a, `taken: ${line}`);
  return a.message;
}

function compiled(schema: unknown): (body: unknown) => ReturnType<Extract<ReturnType<typeof compileJsonSchema>, { validate: unknown }>['validate']> {
  const c = compileJsonSchema(schema);
  assert.ok('validate' in c, 'problem' in c ? c.problem : '');
  return c.validate;
}

const SANDBOX_B = {
  MatchResponse: {
    TransactionDetail: { ApplicationTransactionID: 'BizDataSandbox', ServiceTransactionID: 'sbx-1', TransactionTimestamp: '2026-01-01T00:00:00Z' },
    TransactionResult: { ResultID: 'CM000' },
  },
};
const SANDBOX_A = { transactionDetail: { transactionID: 'sbx-2', transactionTimestamp: '2026-01-01T00:00:00Z' }, candidatesMatchedQuantity: 1 };

function loaded(expected: unknown, writing: LoadedSnapshot['writing'] = 'missing', ignore: readonly string[] = []): LoadedSnapshot {
  return { name: 'f.r.json', path: '__snapshots__/f.r.json', expected, writing, ignore };
}

describe('schema and snapshot assertions: the grammar', () => {
  it('reads "?? schema FILE" and "?? snapshot", any case, with the subject as the operator', () => {
    const schema = parsed('?? schema ./answer.schema.json');
    assert.deepEqual([schema.subject, schema.operator, schema.expected, schema.line, schema.length], ['schema', 'schema', './answer.schema.json', 4, false]);
    const snapshot = parsed('  ?? Snapshot');
    assert.deepEqual([snapshot.subject, snapshot.operator, snapshot.expected], ['snapshot', 'snapshot', undefined]);
  });

  it('refuses a schema line without a file, with a variable or with two words, and a snapshot line with anything after it', () => {
    assert.match(refused('?? schema'), /needs the schema file after it.*\?\? schema \.\/answer\.schema\.json/);
    assert.match(refused('?? schema ./{{name}}.json'), /variables \(\{\{…\}\}\) are not replaced/);
    assert.match(refused('?? schema ./a.json == 3'), /takes one file/);
    assert.match(refused('?? snapshot == {}'), /"\?\? snapshot" takes nothing after it.*# @snapshot-ignore/);
    // The list of what an assertion can check names them.
    assert.match(refused('?? bodyy $.a exists'), /"\?\? schema \.\/answer\.schema\.json" or "\?\? snapshot"/);
  });

  it('reads "# @snapshot-ignore $.path" as the request\'s, and refuses a line that is no JSONPath at its line', () => {
    const f = parseRequestFile(['# @snapshot-ignore $.meta.requestId', '# @snapshot-ignore $..timestamp', 'GET {{baseUrl}}/v1/x', '?? snapshot', '###', '# @snapshot-ignore meta.id', '# @snapshot-ignore', '# @snapshot-ignore $[?match(@.a, "x")]', 'GET {{baseUrl}}/v1/y'].join('\n'));
    assert.deepEqual(f.requests[0].settings.snapshotIgnore, ['$.meta.requestId', '$..timestamp']);
    assert.deepEqual(f.requests[1].settings.snapshotIgnore, []);
    assert.deepEqual(
      f.problems.map((p) => [p.span.line, p.severity]),
      [
        [5, 'error'],
        [6, 'error'],
        [7, 'error'],
      ],
    );
    assert.match(f.problems[0].message, /"meta\.id" is not a JSONPath/);
    assert.match(f.problems[1].message, /needs a JSONPath of the value to leave out/);
    assert.match(f.problems[2].message, /calls match\(\)/);
  });
});

describe('?? schema: the schema and its verdict', () => {
  it('takes the draft from "$schema": 2020-12 by default, draft-07 and 2019-09 when named, and refuses another', () => {
    // A tuple is "prefixItems" in 2020-12 and an "items" array in draft-07, which 2020-12 refuses.
    const tuple = { type: 'array', prefixItems: [{ type: 'number' }], items: false };
    assert.equal(compiled(tuple)([1, 2]).length, 1);
    assert.equal(compiled({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'number' }], additionalItems: false })([1, 2]).length, 1);
    assert.ok('problem' in compileJsonSchema({ type: 'array', items: [{ type: 'number' }] }));
    assert.deepEqual(compiled({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } })({ a: 1 }).map((e) => e.keyword), ['dependentRequired']);
    const old = compileJsonSchema({ $schema: 'http://json-schema.org/draft-04/schema#' });
    assert.ok('problem' in old && /draft-07.*2019-09 and 2020-12/.test(old.problem));
  });

  it('checks formats, and runs patterns on RE2: a pattern that would backtrack for hours answers, a lookaround is refused', () => {
    const validate = compiled({ properties: { at: { type: 'string', format: 'date-time' }, name: { type: 'string', pattern: '^(a+)+$' } } });
    assert.deepEqual(validate({ at: '2026-01-01T00:00:00Z', name: 'aaaa' }), []);
    const errors = validate({ at: 'yesterday', name: `${'a'.repeat(40)}!` });
    assert.deepEqual(errors.map((e) => [e.instancePath, e.keyword]), [['/at', 'format'], ['/name', 'pattern']]);
    const look = compileJsonSchema({ patternProperties: { '^(?!x-)': { type: 'string' } } });
    assert.ok('problem' in look && /lookahead/.test(look.problem), JSON.stringify(look));
  });

  it('refuses a $ref to another file, a schema that breaks its draft, and one that is not an object', () => {
    const ref = compileJsonSchema({ $ref: 'other.schema.json#/x' });
    assert.ok('problem' in ref && /refers to other\.schema\.json.*\$defs/.test(ref.problem), JSON.stringify(ref));
    assert.ok('problem' in compileJsonSchema({ type: 'strin' }));
    assert.ok('problem' in compileJsonSchema([]));
    assert.ok('problem' in compileJsonSchema(true));
  });

  it('names each failure by its JSON pointer and rule, three at most, then how many more', () => {
    const validate = compiled({ required: ['id'], properties: { id: {}, a: { type: 'string' }, b: { enum: ['x', 'y'] }, c: { const: 1 } }, additionalProperties: false });
    const verdict = judgeSchema({ a: 1, b: 'z', c: 2, d: true }, './s.json', validate);
    assert.equal(verdict.passed, false);
    assert.equal(verdict.expected, 'to match ./s.json');
    assert.equal(
      verdict.actual,
      '5 errors: (the body): must have required property \'id\' (required at #/required); (the body): must NOT have additional properties (additionalProperties no property "d" at #/additionalProperties); /a: must be string (type at #/properties/a/type); and 2 more',
    );
    assert.equal(judgeSchema({ b: 'z' }, './s.json', compiled({ properties: { b: { enum: ['x', 'y'] } } })).actual, '1 error: /b: must be equal to one of the allowed values (enum ["x","y"] at #/properties/b/enum)');
    assert.deepEqual(judgeSchema(undefined, './s.json', validate), { passed: false, expected: 'to match ./s.json', actual: '(the body is not JSON)' });
    assert.equal(judgeSchema({ id: 1 }, './s.json', validate).passed, true);
  });
});

describe('?? snapshot: names, what is left out, verdicts', () => {
  it('names a snapshot from the request file and the request\'s name, title or place; a clash gets the place; a row its values\' digest', () => {
    const requests = [{ index: 0, name: 'ipLookup' }, { index: 1, name: 'An org / lookup!' }, { index: 2 }, { index: 3, name: 'ipLookup' }, { index: 4, name: '***' }];
    assert.deepEqual(
      requests.map((r) => snapshotName('orders.bizdata.http', requests, r.index)),
      ['orders.ipLookup.json', 'orders.An-org-lookup.json', 'orders.request-3.json', 'orders.ipLookup-4.json', 'orders.request-5.json'],
    );
    assert.equal(snapshotName('legacy.http', requests, 0), 'legacy-http.ipLookup.json');
    const row = snapshotName('o.bizdata.http', requests, 0, new Map([['ip', '8.8.8.8'], ['view', 'standard']]));
    assert.match(row, /^o\.ipLookup\.row-[0-9a-f]{10}\.json$/);
    assert.equal(snapshotName('o.bizdata.http', requests, 0, new Map([['view', 'standard'], ['ip', '8.8.8.8']])), row, 'the columns\' order does not matter');
    assert.notEqual(snapshotName('o.bizdata.http', requests, 0, new Map([['ip', '1.1.1.1'], ['view', 'standard']])), row);
  });

  it('leaves out what the paths select, items of a list by their place, without touching the answer', () => {
    const body = { a: [{ id: 1, t: 'x' }, { id: 2, t: 'y' }, { id: 3, t: 'z' }], 'odd key': { id: 9 } };
    assert.deepEqual(withoutIgnored(body, ['$.a[0,2]', "$['odd key'].id"]), { a: [{ id: 2, t: 'y' }], 'odd key': {} });
    assert.deepEqual(withoutIgnored(body, ['$..t']), { a: [{ id: 1 }, { id: 2 }, { id: 3 }], 'odd key': { id: 9 } });
    assert.equal(body.a.length, 3);
  });

  it('writes a missing snapshot, or fails in CI; passes the same answer; fails a different one naming the paths; updates it when told', () => {
    const body = { a: 1, b: [1, 2], c: { 'd-e': 'x' } };
    const first = judgeSnapshot(body, loaded(undefined), (t) => t);
    assert.deepEqual([first.passed, first.note, first.write], [true, 'snapshot written: __snapshots__/f.r.json', `${JSON.stringify(body, null, 2)}\n`]);
    const ci = judgeSnapshot(body, loaded(undefined, 'none'), (t) => t);
    assert.equal(ci.passed, false);
    assert.equal(ci.write, undefined);
    assert.match(ci.actual, /in CI a missing snapshot is not written.*bizdata test --update-snapshots.*commit __snapshots__\/f\.r\.json/);
    assert.deepEqual(judgeSnapshot(body, loaded({ c: { 'd-e': 'x' }, b: [1, 2], a: 1 }), (t) => t), { passed: true, expected: 'the snapshot __snapshots__/f.r.json', actual: '(the same)' });
    const changed = judgeSnapshot(body, loaded({ a: 2, b: [1], c: { 'd-e': 'y' }, gone: null }), (t) => t);
    assert.equal(changed.passed, false);
    assert.equal(changed.actual, "4 differences: $.a: expected 2, actual 1; $.b[1]: expected (missing), actual 2; $.c['d-e']: expected \"y\", actual \"x\"; $.gone: expected null, actual (missing)");
    assert.ok(changed.diff && changed.diff.actual.includes('"d-e": "x"') && changed.diff.expected.includes('"gone": null'));
    const update = judgeSnapshot(body, loaded({ a: 2 }, 'update'), (t) => t);
    assert.deepEqual([update.passed, update.note, update.write !== undefined], [true, 'snapshot updated: __snapshots__/f.r.json', true]);
    assert.equal(judgeSnapshot(body, loaded(body, 'update'), (t) => t).write, undefined, 'the same answer is not written again');
    assert.equal(judgeSnapshot(undefined, loaded(body), (t) => t).passed, false);
  });

  it('lists five differences at most, then how many more', () => {
    const many = Object.fromEntries([...'abcdefg'].map((k, i) => [k, i]));
    const v = judgeSnapshot(many, loaded(Object.fromEntries([...'abcdefg'].map((k) => [k, -1]))), (t) => t);
    assert.match(v.actual, /^7 differences: \$\.a: expected -1, actual 0; .*\$\.e: expected -1, actual 4; and 2 more$/);
    assert.deepEqual(differencesOf([1, { x: 1 }], [1, { x: 2 }]).map((d) => d.path), ['$[1].x']);
  });

  it('leaves out the service\'s transaction ids and timestamps in both shapes, and keeps ApplicationTransactionID', () => {
    const defaults = loaded(undefined, 'missing', DEFAULT_SNAPSHOT_IGNORE);
    const withDefaults = judgeSnapshot(SANDBOX_B, defaults, (t) => t);
    assert.deepEqual(JSON.parse(withDefaults.write ?? ''), { MatchResponse: { TransactionDetail: { ApplicationTransactionID: 'BizDataSandbox' }, TransactionResult: { ResultID: 'CM000' } } });
    assert.deepEqual(JSON.parse(judgeSnapshot(SANDBOX_A, defaults, (t) => t).write ?? ''), { transactionDetail: {}, candidatesMatchedQuantity: 1 });
  });

  it('keeps a secret of the run withheld in what it writes and shows, and says so', () => {
    const redact = (t: string): string => t.replaceAll('s3cret', '<redacted>');
    const v = judgeSnapshot({ echo: 'Bearer s3cret' }, loaded(undefined), redact);
    assert.equal(v.write, '{\n  "echo": "Bearer <redacted>"\n}\n');
    assert.match(v.note ?? '', /withheld from it/);
    const diff = judgeSnapshot({ echo: 'Bearer s3cret' }, loaded({ echo: 'x' }), redact);
    assert.ok(!JSON.stringify(diff).includes('s3cret'));
  });

  it('takes no snapshot from an answer that fails the request\'s other assertions', () => {
    const answer: Answer = { status: 500, headers: {}, body: { error: 'down' }, durationMs: 1 };
    const checks: AnswerChecks = { schemas: new Map(), snapshot: loaded(undefined) };
    const [status, snapshot] = evaluateAssertions([parsed('?? status == 200'), parsed('?? snapshot')], answer, undefined, checks);
    assert.equal(status.passed, false);
    assert.deepEqual([snapshot.passed, snapshot.write, snapshot.note], [false, undefined, undefined]);
    assert.match(snapshot.actual, /not written: another assertion of this request failed/);
    const [, ok] = evaluateAssertions([parsed('?? status == 500'), parsed('?? snapshot')], answer, undefined, checks);
    assert.equal(ok.passed, true);
    assert.ok(ok.write !== undefined);
  });

  it('decides what a run may write: --update-snapshots over CI, CI over the default', () => {
    assert.equal(snapshotWriting({}), 'missing');
    assert.equal(snapshotWriting({ ci: true }), 'none');
    assert.equal(snapshotWriting({ ci: true, update: true }), 'update');
  });
});

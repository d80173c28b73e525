// A request block of a request file that is a curl command (REST Client reads these): read as the
// request curl would send, its dropped credentials and refusals placed at their lines.
import * as assert from 'node:assert/strict';
import { parseRequestFile } from '../../../src/core/requests/requestFile';

describe('curl commands in request files', () => {
  it('reads a curl block with continuation lines as its request, with the meta lines above it', () => {
    const f = parseRequestFile(
      [
        '### first',
        'GET {{baseUrl}}/v1/a',
        '',
        '###',
        '# @name created',
        "curl -X POST '{{baseUrl}}/v1/things' \\",
        "  -H 'Content-Type: application/json' \\",
        "  -u me:pw \\",
        `  --data-raw '{"a": 1}'`,
        '',
      ].join('\n'),
    );
    assert.equal(f.requests.length, 2);
    const r = f.requests[1];
    assert.deepEqual([r.name, r.method, r.url, r.body, r.requestLine, r.startLine, r.endLine], ['created', 'POST', '{{baseUrl}}/v1/things', '{"a": 1}', 5, 4, 9]);
    assert.deepEqual(r.headers.map((h) => [h.name, h.value, h.span.line]), [['Content-Type', 'application/json', 6]]);
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity, p.span.line, p.span.start]), [['curl', 'warning', 7, 2]]);
    assert.match(f.problems[0].message, /-u is dropped, and the signed-in account's token is added/);
  });

  it('refuses a curl block at the line of what it cannot read, and reads no request from it', () => {
    const f = parseRequestFile(["curl '{{baseUrl}}/v1/upload' \\", '  -H "X-A: 1" \\', '  -F file=@a.png'].join('\n'));
    assert.deepEqual(f.requests, []);
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity, p.span.line, p.span.start, p.span.end]), [['curl', 'error', 2, 2, 4]]);
    assert.match(f.problems[0].message, /multipart/);
  });

  it('puts the credential header warning at the header line', () => {
    const f = parseRequestFile(["curl {{baseUrl}}/v1/a \\", "  -H 'Authorization: Bearer x'"].join('\n'));
    assert.deepEqual(f.requests[0].headers, []);
    assert.deepEqual(f.problems.map((p) => [p.code, p.span.line]), [['curl', 1]]);
  });

  it('still refuses a {{ that opens nothing inside a curl block', () => {
    const f = parseRequestFile(["curl {{baseUrl}}/v1/a \\", "  -H 'X-A: {{oops'"].join('\n'));
    assert.ok(f.problems.some((p) => p.code === 'syntax' && p.span.line === 1));
  });

  it('reads the request settings above a curl command', () => {
    const f = parseRequestFile(['# @disabled', '# @note sends an email', "curl {{baseUrl}}/v1/a"].join('\n'));
    assert.deepEqual([f.requests[0].settings.disabled, f.requests[0].settings.note], [true, 'sends an email']);
  });

  it('sends a form body as curl does, byte for byte, and refuses one a request file would encode', () => {
    const ok = parseRequestFile("curl {{baseUrl}}/v1/f -d 'a=b%20c&d=1' -d 'e=f'");
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.requests[0].bodyLines.map((l) => l.text), ['a=b%20c&d=1&e=f']);
    const spaced = parseRequestFile("curl {{baseUrl}}/v1/f -d 'a=b c'");
    assert.deepEqual(spaced.requests, []);
    assert.match(spaced.problems[0].message, /curl sends this form body as written, but a request file percent-encodes/);
  });

  it('keeps the line breaks of a JSON body and refuses a GraphQL header a request file would act on', () => {
    const json = parseRequestFile(`curl {{baseUrl}}/v1/j -H 'Content-Type: application/json' --data-raw '{\n  # not a comment\n  "a": 1\n}'`);
    assert.equal(json.requests[0].body, '{\n  # not a comment\n  "a": 1\n}');
    const graphQl = parseRequestFile(`curl {{baseUrl}}/v1/g -H 'X-Request-Type: GraphQL' -d 'query { a }'`);
    assert.deepEqual(graphQl.requests, []);
    assert.match(graphQl.problems[0].message, /GraphQL/);
  });
  it('reads the ?? lines after a curl command as the request\'s assertions, never as part of the command', () => {
    const f = parseRequestFile(
      [
        '### curl with checks',
        "curl -X POST '{{baseUrl}}/v1/things' \\",
        "  -H 'Content-Type: text/plain' \\",
        "  --data-raw 'hello'",
        '',
        '?? status == 200',
        '# the code the client recognised',
        '// in any of its shapes',
        '?? code == CM000',
        '?? body $.items length == 3',
        '',
        '###',
        "curl '{{baseUrl}}/v1/b'",
        '?? header content-type includes json',
      ].join('\n'),
    );
    assert.deepEqual(f.problems, []);
    const [r, b] = f.requests;
    assert.deepEqual([r.method, r.url, r.body, r.headers.map((h) => [h.name, h.value])], ['POST', '{{baseUrl}}/v1/things', 'hello', [['Content-Type', 'text/plain']]]);
    assert.deepEqual(
      r.assertions.map((a) => [a.line, a.text]),
      [
        [5, 'status == 200'],
        [8, 'code == CM000'],
        [9, 'body $.items length == 3'],
      ],
    );
    assert.deepEqual([b.url, b.body, b.assertions.map((a) => [a.line, a.text])], ['{{baseUrl}}/v1/b', undefined, [[13, 'header content-type includes json']]]);
  });

  it('refuses a malformed ?? line after a curl command at its line, as an assertion', () => {
    const f = parseRequestFile(["curl '{{baseUrl}}/v1/a'", '?? js response.statusCode === 200'].join('\n'));
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity, p.span.line]), [['assertion', 'error', 1]]);
    assert.match(f.problems[0].message, /runs JavaScript/);
  });
});

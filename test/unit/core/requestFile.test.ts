// Request files in the syntax REST Client and httpYac document; the examples are written from their
// documentation (separators with titles, @name in both comment styles, file variables, query
// continuation lines, headers then a blank line then the body).
import * as assert from 'node:assert/strict';
import { parseRequestFile } from '../../../src/core/requests/requestFile';

describe('request file parser', () => {
  it('reads several requests separated by ###, with titles, names, headers and bodies', () => {
    const text = [
      '@host = {{baseUrl}}',
      '',
      '### Look up an address',
      'GET {{host}}/v1/duns-search/ip/203.0.113.7?view=standard HTTP/1.1',
      'Accept: application/json',
      '',
      '###',
      '# @name create',
      'POST {{legacyUrl}}/V1.0/things',
      'Content-Type: application/json',
      'X-Trace:   abc  ',
      '',
      '{',
      '  "name": "Example"',
      '}',
      '',
      '',
      '###',
      '// @name = plain',
      '{{baseUrl}}/v1/other',
    ].join('\n');
    const f = parseRequestFile(text);
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.variables.map((v) => [v.name, v.value, v.span.line]), [['host', '{{baseUrl}}', 0]]);
    assert.equal(f.requests.length, 3);
    const [a, b, c] = f.requests;
    assert.deepEqual([a.name, a.method, a.url, a.requestLine], ['Look up an address', 'GET', '{{host}}/v1/duns-search/ip/203.0.113.7?view=standard', 3]);
    assert.deepEqual(a.headers.map((h) => [h.name, h.value]), [['Accept', 'application/json']]);
    assert.equal(a.body, undefined);
    assert.deepEqual([b.name, b.method, b.url], ['create', 'POST', '{{legacyUrl}}/V1.0/things']);
    assert.deepEqual(b.headers.map((h) => [h.name, h.value]), [['Content-Type', 'application/json'], ['X-Trace', 'abc']]);
    assert.equal(b.body, '{\n  "name": "Example"\n}');
    assert.deepEqual([c.name, c.method, c.url], ['plain', 'GET', '{{baseUrl}}/v1/other']);
  });

  it('joins query continuation lines and skips comments before and inside the headers', () => {
    const f = parseRequestFile(['# a comment', '// another', 'GET https://api.example.com/v1/search', '    ?q=acme', '    &page=2', '# not a header', 'Accept: */*'].join('\n'));
    assert.equal(f.requests[0].url, 'https://api.example.com/v1/search?q=acme&page=2');
    assert.deepEqual(f.requests[0].headers.map((h) => h.name), ['Accept']);
  });

  it('reads a header indented like the query lines above it, as httpYac does (Enter keeps the indent)', () => {
    const f = parseRequestFile(['GET https://api.example.com/v1/search', '    ?q=acme', '    Accept: application/json', '    Authorization: Bearer x'].join('\n'));
    assert.deepEqual(f.requests[0].headers.map((h) => [h.name, h.value, h.span.start]), [['Accept', 'application/json', 4], ['Authorization', 'Bearer x', 4]]);
    assert.deepEqual(f.problems.map((p) => [p.code, p.span.line]), [['credential-header', 3]]);
  });

  it('reads # @interface and refuses an unknown one', () => {
    const f = parseRequestFile(['# @interface B', 'GET https://x.example.com/a', '###', '# @interface c', 'GET https://x.example.com/b'].join('\n'));
    assert.equal(f.requests[0].interfaceId, 'b');
    assert.equal(f.requests[1].interfaceId, undefined);
    assert.equal(f.problems.length, 1);
    assert.equal(f.problems[0].code, 'interface');
    assert.equal(f.problems[0].span.line, 3);
  });

  it('warns about Authorization and credential headers, with their place for a quick fix', () => {
    const f = parseRequestFile(['GET {{baseUrl}}/v1/x', 'authorization: Bearer abc', 'x-svc-user: me', 'X-Svc-Pwd: pw', 'Accept: a'].join('\n'));
    const warnings = f.problems.filter((p) => p.code === 'credential-header');
    assert.deepEqual(warnings.map((w) => [w.span.line, w.severity]), [[1, 'warning'], [2, 'warning'], [3, 'warning']]);
    assert.match(warnings[0].message, /never holds a token or a credential/);
  });

  it('reports a line that is neither header nor blank, and a method it does not send', () => {
    const f = parseRequestFile(['POST {{baseUrl}}/v1/x', 'Content-Type: application/json', '{"a": 1}', '###', 'FETCH {{baseUrl}}/v1/y'].join('\n'));
    assert.deepEqual(f.problems.map((p) => [p.span.line, p.code]), [[2, 'syntax'], [4, 'syntax']]);
    assert.match(f.problems[0].message, /blank line between the headers and the body/);
    assert.match(f.problems[1].message, /"FETCH" is not a method/);
  });

  it('keeps @lines in a body as body text, drops a ## line there as a comment (as REST Client and httpYac do), and handles CRLF and empty files', () => {
    const f = parseRequestFile('POST {{baseUrl}}/v1/x\r\n\r\n@not = a variable\r\n##  not a separator\r\nlast\r\n');
    assert.equal(f.requests[0].body, '@not = a variable\nlast');
    assert.deepEqual(f.variables, []);
    assert.deepEqual(parseRequestFile(''), { variables: [], requests: [], problems: [] });
    assert.deepEqual(parseRequestFile('###\n# only a comment\n@x = 1\n').requests, []);
  });
});

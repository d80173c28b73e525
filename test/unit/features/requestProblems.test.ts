// What a request file says is wrong before anything is sent, and how one of its requests is made
// ready to send: the file's credential headers dropped, variables replaced, chained values used.
import * as assert from 'node:assert/strict';
import type { Endpoints } from '../../../src/core/model';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { findRequest, likelyInterface } from '../../../src/features/requestFiles/requestChoice';
import { prepareWithoutFiles } from '../../../src/core/run/prepare';
import { REQUEST_FILE_TEMPLATE } from '../../../src/features/requestFiles/requestFileTemplate';
import { requestFileProblems } from '../../../src/core/run/fileChecks';
import { ChainedResponses } from '../../../src/features/state/chainedResponses';

const SPLIT: Endpoints = { authUrl: 'https://auth.example.com', baseUrl: 'https://plus.example.com', legacyUrl: 'https://direct.example.com', origin: 'https://app.example.com', authVersion: 'V2.0', orgVersion: 'V4.0' };
const NONE: Endpoints = { ...SPLIT, authUrl: '', baseUrl: '', legacyUrl: '' };

describe('request file problems', () => {
  it('finds nothing wrong with the New Request File template', () => {
    assert.deepEqual(requestFileProblems(REQUEST_FILE_TEMPLATE, SPLIT), []);
    const file = parseRequestFile(REQUEST_FILE_TEMPLATE);
    assert.deepEqual(file.requests.map((r) => r.name), ['ipLookup', 'orgSearch', 'Chained: the organization the IP lookup above found (send ipLookup first)']);
  });

  it('reports a request to another host on its request line, naming the hosts the token may go to', () => {
    const text = ['### stolen', '# @interface a', 'GET https://collector.example.net/v1/x', '', '### fine', 'GET {{baseUrl}}/v1/y'].join('\n');
    const problems = requestFileProblems(text, SPLIT);
    assert.equal(problems.length, 1);
    const [p] = problems;
    assert.deepEqual([p.code, p.severity, p.span.line, p.span.start, p.span.end], ['operation', 'error', 2, 0, 38]);
    assert.match(p.message, /goes to https:\/\/collector\.example\.net, which is not a service host of Interface A: its token goes only to https:\/\/auth\.example\.com, https:\/\/plus\.example\.com /);
    assert.match(requestFileProblems('GET https://collector.example.net/v1/x', SPLIT)[0].message, /no configured service host/);
  });

  it('warns about a credential header once (the parser), not again as an operation problem', () => {
    const problems = requestFileProblems(['GET {{baseUrl}}/v1/x', 'Authorization: Bearer abc', 'x-svc-pwd: secret'].join('\n'), SPLIT);
    assert.deepEqual(problems.map((p) => [p.code, p.severity, p.span.line]), [['credential-header', 'warning', 1], ['credential-header', 'warning', 2]]);
  });

  it('reports unknown variables where they are written, and leaves chained ones to the Send', () => {
    const text = ['# @name first', 'GET {{baseUrl}}/v1/{{typo}}', '###', 'GET {{baseUrl}}/v1/{{first.response.body.$.id}}'].join('\n');
    assert.deepEqual(requestFileProblems(text, SPLIT).map((p) => [p.code, p.span.line]), [['unknown-variable', 1]]);
  });

  it('says nothing about hosts before any service address is set (the readiness offer does)', () => {
    assert.deepEqual(requestFileProblems('GET {{baseUrl}}/v1/x', NONE), []);
  });
});

describe('preparing a request to send', () => {
  const text = ['# @name first', 'POST {{legacyUrl}}/V4.0/things', 'Authorization: Bearer pasted', 'X-Trace: t1', '', '{"a": 1}', '###', 'GET {{legacyUrl}}/V4.0/things/{{first.response.body.$.id}}', '###', 'GET {{baseUrl}}/v1/x HTTP/9', 'not a header'].join('\n');
  const file = parseRequestFile(text);

  it('finds a request by a line in its block, by name, or as the only one', () => {
    assert.equal(findRequest(file, { line: 3 })?.index, 0);
    assert.equal(findRequest(file, { line: 7 })?.index, 1);
    assert.equal(findRequest(file, { line: 6 }), undefined, 'the separator belongs to no request');
    assert.equal(findRequest(file, { name: 'first' })?.index, 0);
    assert.equal(findRequest(file, {}), undefined, 'no line and several requests: none');
    const one = parseRequestFile('GET {{baseUrl}}/v1/x');
    assert.equal(findRequest(one, {})?.index, 0);
  });

  it('drops the credential header the file wrote, and keeps the others', () => {
    const p = prepareWithoutFiles(file, file.requests[0], SPLIT, new Map());
    assert.ok(p.ok);
    assert.deepEqual(p.request, { interfaceId: 'b', method: 'POST', url: 'https://direct.example.com/V4.0/things', headers: { 'X-Trace': 't1' }, body: '{"a": 1}' });
  });

  it('uses the document\'s remembered responses for chained values, and says which request to send first', () => {
    const chain = new ChainedResponses();
    const uri = 'untitled:Untitled-1';
    const before = prepareWithoutFiles(file, file.requests[1], SPLIT, chain.of(uri));
    assert.ok(!before.ok);
    assert.equal(before.reason, 'variable');
    assert.match(before.message, /send the request named "first" first/);
    chain.remember(uri, 'first', { body: { id: 'x-7' }, headers: {} });
    const after = prepareWithoutFiles(file, file.requests[1], SPLIT, chain.of(uri));
    assert.ok(after.ok);
    assert.equal(after.request.url, 'https://direct.example.com/V4.0/things/x-7');
    assert.equal(chain.of('untitled:Untitled-2').size, 0, 'responses belong to their document');
    chain.forget(uri);
    assert.equal(chain.of(uri).size, 0);
  });

  it('tells the interface of a request before it is sent, also with chained values and a shared host', () => {
    const local: Endpoints = { ...SPLIT, authUrl: 'http://127.0.0.1:8080', baseUrl: 'http://127.0.0.1:8080', legacyUrl: 'http://127.0.0.1:8080' };
    const f = parseRequestFile(['@host = {{baseUrl}}', '###', 'GET {{host}}/{{aVersion}}/x/{{a.response.body.$.id}}', '###', 'GET {{legacyUrl}}/{{orgVersion}}/y', '###', '# @interface a', 'GET {{legacyUrl}}/z', '###', 'GET https://elsewhere.example.net/v1/x'].join('\n'));
    assert.deepEqual(f.requests.map((r) => likelyInterface(f, r, local)), ['a', 'b', 'a', undefined]);
    assert.deepEqual(f.requests.map((r) => likelyInterface(f, r, SPLIT)), ['a', 'b', 'a', undefined]);
  });

  it('refuses, at its line, a request whose chained address is another spelling of the service host', () => {
    const local: Endpoints = { ...SPLIT, authUrl: 'http://127.0.0.1:8080', baseUrl: 'http://127.0.0.1:8080', legacyUrl: 'http://127.0.0.1:8080' };
    const f = parseRequestFile(['# @name first', 'GET {{baseUrl}}/v1/x', '###', '# @interface a', 'GET {{first.response.body.$.next}}', '###', 'GET {{first.response.body.$.next}}'].join('\n'));
    for (const next of ['http://localhost:8080/v1/y', 'http://[::1]:8080/v1/y', 'http://127.0.0.1:9090/v1/y']) {
      const responses = new Map([['first', { body: { next }, headers: {} }]]);
      for (const [i, line, words] of [[1, 4, /which is not a service host of Interface A: its token goes only to http:\/\/127\.0\.0\.1:8080 /], [2, 6, /which is no configured service host/]] as const) {
        const p = prepareWithoutFiles(f, f.requests[i], local, responses);
        assert.ok(!p.ok, next);
        assert.deepEqual([p.reason, p.line], ['interface', line]);
        assert.match(p.message, words);
        assert.ok(p.message.includes(`goes to ${new URL(next).origin}`), p.message);
      }
    }
  });

  it('refuses a request whose own lines have an error, naming the line', () => {
    const p = prepareWithoutFiles(file, file.requests[2], SPLIT, new Map());
    assert.ok(!p.ok);
    assert.deepEqual([p.reason, p.line], ['problem', 10]);
    assert.match(p.message, /not a header/);
  });

  it('refuses every request while a file variable\'s line has an error: any request may use it', () => {
    const f = parseRequestFile(['@ip = 203.0.113.7\u2028', '@view = {{mode', '###', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}', '###', 'GET {{baseUrl}}/v1/other'].join('\n'));
    for (const r of f.requests) {
      const p = prepareWithoutFiles(f, r, SPLIT, new Map());
      assert.ok(!p.ok);
      assert.deepEqual([p.reason, p.line], ['problem', 0]);
      assert.match(p.message, /U\+2028 \(LINE SEPARATOR\) at column 18/);
    }
    assert.deepEqual(
      requestFileProblems(['@view = {{mode', 'GET {{baseUrl}}/v1/duns-search/ip/1.2.3.4?view={{view}}'].join('\n'), SPLIT).map((p) => [p.span.line, p.code]),
      [[0, 'syntax']],
    );
  });

  it('reports a file that is not text once, and nothing of its bytes as variables or requests', () => {
    const text = `\x1f\ufffd\b\0\0\0{{x}}\nGET {{baseUrl}}/v1/{{nope}}\n`;
    assert.deepEqual(
      requestFileProblems(text, SPLIT).map((p) => [p.span.line, p.code]),
      [[0, 'binary']],
    );
  });
});

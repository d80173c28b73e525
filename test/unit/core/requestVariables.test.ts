import * as assert from 'node:assert/strict';
import type { Endpoints } from '../../../src/core/model';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { connectionVariables, inferInterface, jsonPath, resolveRequest, unknownReferences, type ChainedResponse } from '../../../src/core/requests/requestVariables';
import { cpuMs } from '../cpuTime';

const SPLIT: Endpoints = { authUrl: 'https://auth.example.com', baseUrl: 'https://plus.example.com', legacyUrl: 'https://direct.example.com', origin: 'https://app.example.com', authVersion: 'V2.0', orgVersion: 'V4.0' };
const LOCAL: Endpoints = { ...SPLIT, authUrl: 'http://127.0.0.1:8080', baseUrl: 'http://127.0.0.1:8080', legacyUrl: 'http://127.0.0.1:8080' };

function resolveFirst(text: string, e: Endpoints, responses: ReadonlyMap<string, ChainedResponse> = new Map(), index = 0) {
  const f = parseRequestFile(text);
  return resolveRequest(f, f.requests[index], { connection: connectionVariables(e), responses }, e);
}

describe('request file variables', () => {
  it('replaces connection and file variables, file variables using others', () => {
    const r = resolveFirst(['@id = 203.0.113.7', '@path = /{{aVersion}}/duns-search/ip/{{id}}', 'GET {{baseUrl}}{{path}}?view=standard', 'X-Origin-Copy: {{origin}}'].join('\n'), SPLIT);
    assert.ok(r.ok);
    assert.equal(r.request.url, 'https://plus.example.com/v1/duns-search/ip/203.0.113.7?view=standard');
    assert.equal(r.request.headers['X-Origin-Copy'], 'https://app.example.com');
    assert.equal(r.request.interfaceId, 'a');
  });

  it('chains on an earlier named response: JSONPath into the body, a header, the whole body', () => {
    const responses = new Map<string, ChainedResponse>([['first', { body: { items: [{ id: 'x-1', n: 2 }], 'odd key': 'v' }, headers: { 'x-request-id': 'req-9' } }]]);
    const text = ['POST {{legacyUrl}}/V4.0/things/{{first.response.body.$.items[0].id}}', 'X-Ref: {{first.response.headers.X-Request-Id}}', '', '{{first.response.body.*}} {{first.response.body.$["odd key"]}} {{first.response.body.$.items[0].n}}'].join('\n');
    const r = resolveFirst(text, SPLIT, responses);
    assert.ok(r.ok);
    assert.equal(r.request.url, 'https://direct.example.com/V4.0/things/x-1');
    assert.equal(r.request.headers['X-Ref'], 'req-9');
    assert.equal(r.request.body, `${JSON.stringify({ items: [{ id: 'x-1', n: 2 }], 'odd key': 'v' })} v 2`);
    assert.equal(r.request.interfaceId, 'b');
  });

  it('says what is missing: an undefined variable, a request not yet sent, a circle', () => {
    const undef = resolveFirst('GET {{baseUrl}}/v1/{{nope}}', SPLIT);
    assert.ok(!undef.ok);
    assert.match(undef.message, /\{\{nope\}\} is not defined; add "@nope = value"/);
    const unsent = resolveFirst('GET {{baseUrl}}/v1/{{login.response.body.$.id}}', SPLIT);
    assert.ok(!unsent.ok);
    assert.match(unsent.message, /send the request named "login" first/);
    assert.equal(undef.reason, 'variable');
    assert.equal(unsent.reason, 'variable');
    // A circle is a problem of the file like the others, reported on the request, never thrown.
    const circle = resolveFirst('@a = {{b}}\n@b = {{a}}\nGET {{baseUrl}}/v1/{{a}}', SPLIT);
    assert.ok(!circle.ok);
    assert.equal(circle.reason, 'variable');
    assert.equal(circle.line, 2);
    assert.match(circle.message, /a → b → a refer to each other in a circle/);
    const nowhere = resolveFirst('GET https://elsewhere.example.net/v1/x', SPLIT);
    assert.ok(!nowhere.ok);
    assert.equal(nowhere.reason, 'interface');
  });

  it('refuses a {{ that opens nothing, in the request or in a file variable it uses (at that variable\'s line)', () => {
    const direct = resolveFirst('GET {{baseUrl}}/v1/duns-search/ip/{{ip', SPLIT);
    assert.ok(!direct.ok);
    assert.deepEqual([direct.reason, direct.line], ['variable', 0]);
    assert.match(direct.message, /^"\{\{" opens a variable that is not closed on this line/);
    const viaVariable = resolveFirst(['@ip = {{other', '###', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}'].join('\n'), SPLIT);
    assert.ok(!viaVariable.ok);
    assert.deepEqual([viaVariable.reason, viaVariable.line], ['variable', 0]);
    assert.match(viaVariable.message, /^The value of ip: "\{\{"/);
    const empty = resolveFirst('GET {{baseUrl}}/v1/{{ }}', SPLIT);
    assert.ok(!empty.ok);
    assert.match(empty.message, /names no variable/);
  });

  it('reads only what a response holds, never a property every object has', () => {
    const responses = new Map<string, ChainedResponse>([['first', { body: { a: 1 }, headers: {} }]]);
    for (const ref of ['first.response.headers.constructor', 'first.response.headers.__proto__', 'first.response.body.$.constructor', 'first.response.body.$.a.toString']) {
      const r = resolveFirst(`GET {{baseUrl}}/v1/{{${ref}}}`, SPLIT, responses);
      assert.ok(!r.ok, ref);
      assert.match(r.message, /has no value: send the request named "first" first/, ref);
    }
    assert.equal(jsonPath({ a: {} }, '$.a.constructor'), undefined);
  });

  it('stops variables that use each other too deep, or grow without end, with a message', () => {
    const chain = Array.from({ length: 40 }, (_, i) => `@v${i} = {{v${i + 1}}}`).concat('@v40 = x', 'GET {{baseUrl}}/v1/{{v0}}');
    const deep = resolveFirst(chain.join('\n'), SPLIT);
    assert.ok(!deep.ok);
    assert.equal(deep.line, 41);
    assert.match(deep.message, /v0 → v1 → .* use each other more than 32 deep; give one of them its value directly/);
    const doubling = Array.from({ length: 30 }, (_, i) => `@d${i} = {{d${i + 1}}}{{d${i + 1}}}`).concat('@d30 = xx', 'GET {{baseUrl}}/v1/{{d0}}');
    const { result: many, ms } = cpuMs(() => resolveFirst(doubling.join('\n'), SPLIT));
    assert.ok(!many.ok);
    assert.match(many.message, /take more than 10000 values in all/);
    assert.ok(ms < 2000, `${ms} ms of CPU`);
    const big = resolveFirst([`@x = ${'x'.repeat(200_000)}`, '@y = {{x}}{{x}}{{x}}{{x}}{{x}}{{x}}', 'POST {{baseUrl}}/v1/x', '', '{{y}}'].join('\n'), SPLIT);
    assert.ok(!big.ok);
    assert.match(big.message, /grow to more than 1048576 characters; check what @y refers to\.$/);
  });

  it('lists unknown references with their place, knowing names of the file', () => {
    const text = ['# @name login', 'GET {{baseUrl}}/v1/x', '###', 'GET {{baseUrl}}/v1/{{login.response.body.$.id}}/{{typo}}/{{other.response.headers.X}}'].join('\n');
    const problems = unknownReferences(text, parseRequestFile(text), connectionVariables(SPLIT));
    assert.deepEqual(problems.map((p) => [p.span.line, p.span.start, p.span.end]), [[3, 48, 56], [3, 57, 85]]);
    assert.match(problems[0].message, /Unknown variable "typo"/);
    assert.match(problems[1].message, /No request named "other"/);
  });

  it('infers the interface from the host, and from the version segment where hosts are shared', () => {
    assert.equal(inferInterface('https://plus.example.com/anything', SPLIT), 'a');
    assert.equal(inferInterface('https://AUTH.example.com:443/v1/token', SPLIT), 'a');
    assert.equal(inferInterface('https://direct.example.com/V2.0/x', SPLIT), 'b');
    assert.equal(inferInterface('https://evil.example.net/v1/x', SPLIT), undefined);
    assert.equal(inferInterface('http://127.1:8080/v1/duns-search/ip/1.2.3.4', LOCAL), 'a');
    assert.equal(inferInterface('http://127.0.0.1:8080/V4.0/organizations', LOCAL), 'b');
    // Another spelling of the loopback host is another host: another program may listen there.
    for (const other of ['http://localhost:8080/v1/x', 'http://[::1]:8080/V4.0/x', 'http://127.0.0.1:8081/v1/x']) assert.equal(inferInterface(other, LOCAL), undefined, other);
    const unknownHost = resolveFirst('GET https://evil.example.net/v1/x', SPLIT);
    assert.ok(!unknownHost.ok);
    assert.match(unknownHost.message, /goes to https:\/\/evil\.example\.net, which is no configured service host.*Interface A's token goes only to https:\/\/auth\.example\.com, https:\/\/plus\.example\.com, Interface B's only to https:\/\/direct\.example\.com /);
    // Naming the interface does not widen where its token goes.
    const named = resolveFirst('# @interface b\nGET http://localhost:8080/V4.0/organizations', LOCAL);
    assert.ok(!named.ok);
    assert.deepEqual([named.reason, named.line], ['interface', 1]);
    assert.match(named.message, /goes to http:\/\/localhost:8080, which is not a service host of Interface B: its token goes only to http:\/\/127\.0\.0\.1:8080 /);
  });

  it('reads JSONPath as RFC 9535 writes it', () => {
    const doc = { a: { b: [10, { c: 'd' }] }, 'k-1': true };
    assert.equal(jsonPath(doc, '$.a.b[1].c'), 'd');
    assert.equal(jsonPath(doc, "$['k-1']"), true);
    assert.deepEqual(jsonPath(doc, '$'), doc);
    assert.equal(jsonPath(doc, '$.a.x'), undefined);
    assert.equal(jsonPath(doc, 'a.b'), undefined);
    // RFC 9535 beyond the old subset: descendants, wildcards (several values as a list), filters, from the end.
    assert.deepEqual(jsonPath(doc, '$..c'), 'd');
    assert.deepEqual(jsonPath(doc, '$.a.b[*]'), [10, { c: 'd' }]);
    assert.deepEqual(jsonPath(doc, '$.a.b[?@.c == "d"].c'), 'd');
    assert.equal(jsonPath(doc, '$.a.b[-2]'), 10);
    // A name with a dash is written in brackets; the shorthand is no JSONPath, and the file says so at its line.
    assert.equal(jsonPath(doc, '$.k-1'), undefined);
    const f = parseRequestFile(['# @name first', 'GET {{baseUrl}}/v1/x', '###', 'GET {{baseUrl}}/v1/{{first.response.body.$.k-1}}'].join('\n'));
    const [bad] = unknownReferences('# @name first\nGET {{baseUrl}}/v1/x\n###\nGET {{baseUrl}}/v1/{{first.response.body.$.k-1}}', f, connectionVariables(SPLIT));
    assert.deepEqual([bad.span.line, bad.code], [3, 'syntax']);
    assert.match(bad.message, /"\$\.k-1" is not a JSONPath \(RFC 9535\) at character 4\. Names with characters other than letters, digits and _ go in brackets/);
  });
});

// The rules of core/import in plain Node: which test-script forms become which assertions, Postman's
// v2.0 format beside v2.1, where a URL goes (an address with a path, --host, the sign-in), examples
// from schemas that refer to themselves, Swagger 2.0, what kind a file is, and that every file written
// reads as the editor reads it, with no problem, and holds no secret of its source.
import * as assert from 'node:assert/strict';
import { readOpenApi } from '../../../src/core/import/openApi';
import { readPostman } from '../../../src/core/import/postman';
import { scriptAssertions } from '../../../src/core/import/postmanTests';
import { guessKind } from '../../../src/core/import/importSource';
import { exampleOf } from '../../../src/core/import/schemaExample';
import { writeImport } from '../../../src/core/import/writeImport';
import { isRecord } from '../../../src/core/import/loose';
import { requestFileProblems } from '../../../src/core/run/fileChecks';
import { POSTMAN_V21 } from '../../postmanParts';
import { endpointsFor } from './harness';

describe('import: Postman test scripts in common forms become assertions', () => {
  const cases: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['pm.test("ok", function () { pm.response.to.have.status(201); });', ['status == 201']],
    ['pm.response.to.not.have.status(500)', ['status != 500']],
    ['pm.expect(pm.response.code).to.eql(200);', ['status == 200']],
    ['pm.response.to.be.ok;', ['status == 200']],
    ['pm.response.to.be.success', ['status >= 200', 'status < 300']],
    ['pm.response.to.be.json;', ['header content-type includes json']],
    [
      'pm.response.to.have.header("X-Id");\npm.response.to.have.header("Content-Type", "application/json");',
      ['header X-Id exists', 'header Content-Type == "application/json"'],
    ],
    ['pm.expect(pm.response.headers.get("Content-Type")).to.include("json")', ['header Content-Type includes "json"']],
    ['pm.expect(pm.response.responseTime).to.be.below(500);', ['duration < 500']],
    ['var jsonData = pm.response.json();\npm.expect(jsonData.a.b[0]["c d"]).to.eql("x");', ['body $.a.b[0][\'c d\'] == "x"']],
    [
      'const body = pm.response.json(); pm.expect(body.items).to.have.lengthOf(3); pm.expect(body.items).to.be.an("array");',
      ['body $.items length == 3', 'body $.items isArray'],
    ],
    [
      'let d = JSON.parse(responseBody); pm.expect(d.total).to.be.above(2); pm.expect(d.total).to.be.at.most(9);',
      ['body $.total > 2', 'body $.total <= 9'],
    ],
    [
      'var j = pm.response.json(); pm.expect(j.items.length).to.equal(2); pm.expect(j.id).to.exist; pm.expect(j.gone).to.not.exist;',
      ['body $.items length == 2', 'body $.id exists', 'body $.gone !exists'],
    ],
    [
      'var j = pm.response.json(); pm.expect(j.ok).to.be.true; pm.expect(j).to.have.property("name", "pen");',
      ['body $.ok == true', 'body $.name == "pen"'],
    ],
    ['var j = pm.response.json(); pm.expect(j.duns).to.match(/^[0-9]{9}$/);', ['body $.duns matches /^[0-9]{9}$/']],
    ['pm.expect(pm.response.text()).to.include("Success")', ['body includes "Success"']],
    ['pm.response.to.have.jsonBody("a.b", 3)', ['body $.a.b == 3']],
    [
      'tests["Status code is 200"] = responseCode.code === 200;\ntests["has"] = responseBody.has("CM000");',
      ['status == 200', 'body includes "CM000"'],
    ],
    // Not data: left as comments, never a wrong assertion.
    ['pm.expect(jsonData.x).to.eql(5);', []],
    ['var j = pm.response.json(); pm.expect(j.id).to.eql(pm.environment.get("id"));', []],
    ['var j = pm.response.json(); pm.expect(j.name).to.eql("{{name}}");', []],
    ['// pm.response.to.have.status(404);\n/* pm.response.to.have.status(500) */', []],
  ];
  for (const [script, expected] of cases) {
    it(script.split('\n')[0].slice(0, 90), () => assert.deepEqual(scriptAssertions(script), expected));
  }
});

/** The files of an import into a connection at `url`, each checked to read as the editor reads it, with no error. */
function imported(
  doc: unknown,
  url = 'http://127.0.0.1:8080',
  o: { hosts?: string[]; all?: boolean; environment?: unknown } = {},
): ReturnType<typeof writeImport> {
  const endpoints = endpointsFor(url);
  const source = readPostman(JSON.stringify(doc), o.environment === undefined ? undefined : JSON.stringify(o.environment));
  const result = writeImport(source, { endpoints, hosts: o.hosts ?? [], all: o.all ?? false });
  // What the editor underlines: the parser's problems, unknown variables, requests the client would refuse.
  for (const f of result.files)
    assert.deepEqual(
      requestFileProblems(f.text, endpoints).filter((p) => p.severity === 'error'),
      [],
      f.text,
    );
  return result;
}

describe('import: Postman collections', () => {
  it('reads v2.0 auth as an object, a URL as a string and headers as one string', () => {
    const r = imported({
      info: { name: 'Old', schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' },
      auth: { type: 'bearer', bearer: { token: 'v20-canary-token-6aa1' } },
      item: [
        {
          name: 'key',
          request: {
            method: 'GET',
            url: 'http://127.0.0.1:8080/v1/echo/a',
            header: 'Accept: application/json\nX-Id: 7',
            auth: { type: 'apikey', apikey: { key: 'X-Key', value: 'v20-canary-key-03bd', in: 'header' } },
          },
        },
        { name: 'inherits', request: 'http://127.0.0.1:8080/V4.0/x' },
      ],
    });
    const text = r.files[0].text;
    assert.match(text, /^GET \{\{baseUrl\}\}\/v1\/echo\/a\nAccept: application\/json\nX-Id: 7\nX-Key: \{\{X-Key\}\}$/m);
    assert.match(text, /^# @prompt X-Key a secret/m);
    assert.match(text, /^GET \{\{legacyUrl\}\}\/V4\.0\/x$/m);
    assert.ok(!text.includes('canary'));
    assert.match(r.report.map((l) => l.message).join('\n'), /Its bearer auth became the connection's managed token/);
  });

  it('writes a URL from the address of the connection with its path, and a --host by its paths', () => {
    const doc = {
      info: { name: 'Paths', schema: POSTMAN_V21 },
      item: [
        { name: 'a', request: { method: 'GET', url: 'https://gw.example.com/api/v1/items?x=1' } },
        { name: 'b', request: { method: 'GET', url: 'https://prod.example.com/V4.0/organizations' } },
        { name: 'token', request: { method: 'POST', url: 'https://prod.example.com/v1/token' } },
      ],
    };
    const endpoints = { ...endpointsFor('https://gw.example.com/api'), legacyUrl: 'https://legacy.example.com' };
    const r = writeImport(readPostman(JSON.stringify(doc)), { endpoints, hosts: ['https://prod.example.com'], all: false });
    const text = r.files.map((f) => f.text).join('\n');
    assert.match(text, /^GET \{\{baseUrl\}\}\/v1\/items\?x=1$/m);
    assert.match(text, /^GET \{\{legacyUrl\}\}\/V4\.0\/organizations$/m);
    assert.ok(r.report.some((l) => l.where === 'token' && l.kind === 'left-out' && /sign-in/.test(l.message)));
  });

  it('asks for a variable a script sets, and never writes a secret variable, even one another variable names', () => {
    const r = imported({
      info: { name: 'Vars', schema: POSTMAN_V21 },
      variable: [
        { key: 'header', value: 'Token {{secretValue}}' },
        { key: 'secretValue', value: 'vars-canary-secret-91cc' },
        { key: 'weird name', value: 'w' },
      ],
      item: [
        {
          name: 'x',
          request: {
            method: 'POST',
            url: 'http://127.0.0.1:8080/v1/echo/x?id={{fromScript}}&w={{weird name}}',
            header: [{ key: 'X-Sign', value: '{{header}}' }],
            body: { mode: 'raw', raw: '{"at": "{{$timestamp}}", "who": "{{$randomFirstName}}"}' },
          },
        },
      ],
    });
    const text = r.files[0].text;
    assert.ok(!text.includes('vars-canary-secret-91cc'));
    assert.match(text, /^@header = Token \{\{secretValue\}\}$/m);
    assert.match(text, /^# @prompt secretValue a secret/m);
    assert.match(text, /^# @prompt fromScript no value in the source/m);
    assert.match(text, /^# @prompt randomFirstName /m);
    assert.match(text, /^@weird_name = w$/m);
    assert.match(text, /"at": "\{\{\$timestamp\}\}"/);
  });
  it("leaves out a request that writes a secret's value out, and asks for a value a file variable cannot keep", () => {
    const r = imported({
      info: { name: 'Checked', schema: POSTMAN_V21 },
      variable: [
        { key: 'apiToken', value: 'leak-canary-5e1d77' },
        { key: 'padded', value: 'x  ' },
      ],
      item: [
        {
          name: 'leaks',
          request: { method: 'GET', url: 'http://127.0.0.1:8080/v1/echo/a', header: [{ key: 'X-Note', value: 'leak-canary-5e1d77' }] },
        },
        { name: 'fine', request: { method: 'GET', url: 'http://127.0.0.1:8080/v1/echo/b?p={{padded}}&t={{apiToken}}' } },
      ],
    });
    const text = r.files.map((f) => f.text).join('\n');
    assert.ok(!text.includes('leak-canary'));
    assert.doesNotMatch(text, /### leaks/);
    assert.ok(r.report.some((l) => l.where === 'leaks' && l.kind === 'left-out' && /holds the value of a secret/.test(l.message)));
    assert.match(text, /^# @prompt padded asked when sending$/m);
    assert.match(text, /^# @prompt apiToken a secret/m);
    assert.ok(
      r.report.some((l) => /\{\{padded\}\} is asked when sending \(# @prompt\) rather than written: its value has spaces at its end/.test(l.message)),
    );
  });
});

describe('import: examples from schemas, and kinds of file', () => {
  it('makes an example of a schema that refers to itself, and stops', () => {
    const doc = {
      Node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/Node' }, when: { type: 'string', format: 'date' } } },
    };
    const resolve = (n: unknown): Record<string, unknown> | undefined => {
      const ref = isRecord(n) ? n.$ref : undefined;
      const target = typeof ref === 'string' ? (doc as Record<string, unknown>)[ref.slice(2)] : n;
      return isRecord(target) ? (target as Record<string, unknown>) : undefined;
    };
    assert.deepEqual(exampleOf({ $ref: '#/Node' }, resolve), { name: 'string', when: '2025-01-31' });
    assert.deepEqual(exampleOf({ oneOf: [{ type: 'integer', minimum: 5 }, { type: 'string' }] }, resolve), 5);
    assert.deepEqual(exampleOf({ type: ['null', 'boolean'] }, resolve), true);
  });

  it('reads a Swagger 2.0 document: host and base path, a body parameter, form fields', () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'Old API', version: '1' },
      host: 'api.example.com',
      basePath: '/v1',
      schemes: ['https'],
      paths: {
        '/things': {
          post: {
            operationId: 'addThing',
            parameters: [{ in: 'body', name: 'body', schema: { $ref: '#/definitions/Thing' } }],
            responses: { 201: {} },
          },
        },
        '/forms/{id}': {
          put: {
            consumes: ['application/x-www-form-urlencoded'],
            parameters: [
              { in: 'path', name: 'id', type: 'integer', required: true },
              { in: 'formData', name: 'label', type: 'string', default: 'a b' },
            ],
            responses: { 200: {} },
          },
        },
      },
      definitions: { Thing: { type: 'object', properties: { name: { type: 'string', example: 'pen' }, count: { type: 'integer', minimum: 1 } } } },
    };
    const endpoints = endpointsFor('http://127.0.0.1:8080');
    const r = writeImport(readOpenApi(JSON.stringify(doc), 'old'), { endpoints, hosts: ['https://api.example.com'], all: false });
    const text = r.files.map((f) => f.text).join('\n');
    for (const f of r.files)
      assert.deepEqual(
        requestFileProblems(f.text, endpoints).filter((p) => p.severity === 'error'),
        [],
        f.text,
      );
    const added = ['# @name addThing', 'POST {{baseUrl}}/v1/things', 'Content-Type: application/json', '', '{', '  "name": "pen",', '  "count": 1', '}', '', '?? status == 201'];
    assert.ok(text.includes(added.join('\n')), text);
    assert.match(text, /^PUT \{\{baseUrl\}\}\/v1\/forms\/\{\{id\}\}\nContent-Type: application\/x-www-form-urlencoded\n\nlabel=a%20b$/m);
    assert.match(text, /^@id = 0$/m);
  });

  it('tells a collection, an environment, a HAR file and an OpenAPI document (JSON or YAML) apart', () => {
    assert.equal(guessKind(JSON.stringify({ info: { name: 'c' }, item: [] })), 'postman');
    assert.equal(guessKind(JSON.stringify({ name: 'e', values: [] })), 'environment');
    assert.equal(guessKind(JSON.stringify({ log: { entries: [] } })), 'har');
    assert.equal(guessKind('openapi: 3.1.0\ninfo: { title: x, version: "1" }\npaths: {}\n'), 'openapi');
    assert.equal(guessKind('{"swagger": "2.0"}'), 'openapi');
    assert.equal(guessKind('not: [a, document'), undefined);
    assert.equal(guessKind('{"something": "else"}'), undefined);
  });
});

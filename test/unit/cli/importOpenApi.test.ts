// `bizdata import openapi` (the built CLI): an OpenAPI document in YAML written for this test (a
// server with variables, tags, path, query and header parameters, $refs, allOf, readOnly and secret
// fields, a form body, an operation of Interface B, a YAML alias), imported and sent through the
// recording relay to the real sandbox: each operation reaches the service with its path and query
// parameters at their examples and an example body from its schema. And the sandbox's own
// document: imported, its requests pass `bizdata test` against the sandbox that published it.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary, sandbox, type Sandbox } from '../core/harness';
import { canaryEnv } from './cliHarness';
import { filesIn, formFields, useImportRuns } from './importHarness';

const DOCUMENT = `openapi: 3.0.3
info:
  title: Relay operations
  version: "1.0"
servers:
  - url: https://api.example.com/{segment}
    variables:
      segment:
        default: v1
x-responses:
  ok: &ok
    description: OK
paths:
  /echo/items/{itemId}:
    parameters:
      - name: itemId
        in: path
        required: true
        schema: { type: integer, example: 42 }
    get:
      tags: [Items]
      operationId: getItem
      summary: One item
      parameters:
        - { name: fields, in: query, schema: { type: array, items: { type: string }, example: [name, tags] } }
        - { name: limit, in: query, schema: { type: integer, default: 10 } }
        - { name: debug, in: query, schema: { type: boolean } }
        - { name: api_key, in: query, required: true, schema: { type: string } }
        - { name: X-Request-Id, in: header, schema: { type: string, example: req-1 } }
        - { name: session, in: cookie, schema: { type: string } }
      responses:
        "200": *ok
  /echo/items:
    post:
      tags: [Items]
      operationId: createItem
      requestBody:
        $ref: "#/components/requestBodies/NewItem"
      responses:
        "200": *ok
        "400": { description: Bad input }
  /echo/forms:
    put:
      operationId: putForm
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                a: { type: string, example: x y }
                b: { type: integer }
      responses:
        "200": *ok
  /V9.9/echo/orgs:
    get:
      tags: [Legacy]
      operationId: findOrgs
      servers: [{ url: "https://api.example.com" }]
      parameters:
        - { name: country, in: query, required: true, schema: { $ref: "#/components/schemas/Country" } }
        - { name: Authorization, in: header, required: true, schema: { type: string } }
      responses:
        "200": *ok
  /echo/external:
    post:
      tags: [Items]
      requestBody:
        content:
          application/json:
            schema: { $ref: "other.yaml#/Thing" }
      responses:
        "200": *ok
components:
  schemas:
    Country: { type: string, enum: [US, GB] }
    Base:
      type: object
      properties:
        id: { type: string, readOnly: true }
        name: { type: string, example: pen }
    Item:
      allOf:
        - $ref: "#/components/schemas/Base"
        - type: object
          properties:
            tags: { type: array, items: { type: string, example: a } }
            password: { type: string, writeOnly: true }
            when: { type: string, format: date-time }
  requestBodies:
    NewItem:
      required: true
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Item" }
`;

describe('bizdata import openapi (recording relay, real sandbox)', function () {
  this.timeout(90_000);
  const t = useImportRuns('bizdata-import-openapi-');
  after(() => assertNoCanary(t.outputs));

  it('writes one request per operation, parameters as variables and an example body, that send as the document describes', async () => {
    const file = join(t.at.dir, 'relay.yaml');
    await writeFile(file, DOCUMENT);
    const out = join(t.at.dir, 'requests');
    const imported = await t.run(['import', 'openapi', file, '--out', out, '--host', 'https://api.example.com']);
    assert.equal(imported.code, 0, imported.stderr);
    const files = await filesIn(out);
    assert.deepEqual([...files.keys()], ['items.bizdata.http', 'legacy.bizdata.http', 'relay-operations.bizdata.http']);
    assert.match(imported.stdout, /GET \/echo\/items\/\{itemId\}: Its cookie parameter session: this client sends no cookies\./);
    assert.match(imported.stdout, /The reference other\.yaml#\/Thing is to another file .*Bundle the document into one file first\./);
    assert.match(imported.stdout, /GET \/V9\.9\/echo\/orgs: Left out the header Authorization \(the connection's token goes instead\)\./);
    const items = files.get('items.bizdata.http') ?? '';
    assert.match(items, /^# Optional query parameters without an example, left out: debug\.$/m);
    assert.match(items, /^# @name getItem$/m);
    assert.match(items, /^# @prompt api_key a secret/m);
    assert.match(items, /^# @prompt password a secret/m);

    for (const [name, vars] of [
      ['items.bizdata.http', ['api_key=key-answer', 'password=pw-answer']],
      ['legacy.bizdata.http', []],
      ['relay-operations.bizdata.http', []],
    ] as const) {
      const sent = await t.run(['test', join(out, name), ...vars.flatMap((v) => ['--var', v])]);
      assert.equal(sent.code, 0, `${name}: ${sent.stdout}\n${sent.stderr}`);
    }
    const byPath = new Map(t.sent().map((r) => [`${r.method} ${r.path}`, r]));
    assert.deepEqual([...byPath.keys()].sort(), [
      'GET /V9.9/echo/orgs',
      'GET /v1/echo/items/42',
      'POST /v1/echo/external',
      'POST /v1/echo/items',
      'PUT /v1/echo/forms',
    ]);
    const get = byPath.get('GET /v1/echo/items/42');
    assert.deepEqual(
      [...(get?.query ?? [])],
      [
        ['fields', 'name'],
        ['limit', '10'],
        ['api_key', 'key-answer'],
      ],
    );
    assert.equal(get?.headers.get('x-request-id'), 'req-1');
    assert.equal(get?.headers.has('cookie'), false);
    const created = byPath.get('POST /v1/echo/items');
    assert.equal(created?.headers.get('content-type'), 'application/json');
    assert.deepEqual(JSON.parse(created?.body.toString() ?? ''), { name: 'pen', tags: ['a'], password: 'pw-answer', when: '2025-01-31T12:00:00Z' });
    assert.equal(byPath.get('POST /v1/echo/external')?.body.length, 0, 'the body of another file is left out');
    assert.deepEqual(formFields(byPath.get('PUT /v1/echo/forms')), [
      ['a', 'x y'],
      ['b', '0'],
    ]);
    const orgs = byPath.get('GET /V9.9/echo/orgs');
    assert.equal(orgs?.rawQuery, 'country=US');
    assert.match(orgs?.headers.get('authorization') ?? '', /^(?!Bearer )\S+$/, 'Interface B: the raw managed token');
  });
});

describe("bizdata import openapi of the sandbox's own document", function () {
  this.timeout(90_000);
  const outputs: string[] = [];
  let sb: Sandbox | undefined;
  const t = useImportRuns('bizdata-import-sandbox-doc-');
  before(async () => {
    sb = await sandbox();
  });
  after(async () => {
    await sb?.close();
    assertNoCanary(outputs);
  });

  it('gives request files that pass bizdata test against the sandbox', async () => {
    const url = (sb as Sandbox).url;
    const res = await fetch(`${url}/openapi.json`);
    assert.equal(res.status, 200);
    const file = join(t.at.dir, 'sandbox.openapi.json');
    await writeFile(file, await res.text());
    const out = join(t.at.dir, 'sandbox');
    const imported = await t.run(['import', 'openapi', file, '--out', out], canaryEnv(url));
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual([...(await filesIn(out)).keys()], ['interface-a.bizdata.http', 'interface-b.bizdata.http']);
    assert.match(imported.stdout, /POST \/v1\/token: It is the service's sign-in/);
    assert.match(imported.stdout, /POST \/Authentication\/\{version\}\/: It is the service's sign-in/);
    const tested = await t.run(['test', out], canaryEnv(url));
    assert.equal(tested.code, 0, `${tested.stdout}\n${tested.stderr}`);
    assert.match(tested.stdout + tested.stderr, /2 files, 2 requests: 2 passed, 0 failed, 0 errors/);
    const customer = await (sb as Sandbox).customer();
    assert.equal(customer.dataCalls, 2, 'both operations reached the sandbox that published the document');
    outputs.push(imported.stdout, imported.stderr, tested.stdout, tested.stderr);
  });
});

// Named connections (issue 17): the file's format, every refusal with its place and the names of the
// connection and field, the defaults, choosing by name, the variables a request file gets, and the
// migration of today's single settings. The schema in schemas/ is held to the same verdicts by ajv.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import {
  connectionHosts,
  connectionVariables,
  DEFAULT_CONNECTION,
  findConnection,
  migrateEndpointSettings,
  SANDBOX_CONNECTION,
  sandboxConnection,
  UnknownConnectionError,
} from '../../../src/core/connections/connection';
import { ConnectionsError, parseConnectionsText, readConnectionsValue } from '../../../src/core/connections/connectionsFile';

const SCHEMA = JSON.parse(readFileSync(resolve(__dirname, '../../../../schemas/connections.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(SCHEMA);

const GOOD = `{
  "active": "test",
  "connections": {
    "test": { "authUrl": "https://auth.test.example", "baseUrl": "https://api.test.example/", "legacyUrl": "https://legacy.test.example", "origin": "https://app.example.com" },
    "production": { "authUrl": "https://auth.example", "baseUrl": "https://api.example", "legacyUrl": "https://legacy.example", "origin": "https://app.example.com",
                    "production": true, "qps": 20, "concurrency": 4, "coordinator": "redis://127.0.0.1:6379", "proxy": "http://proxy.corp:3128", "caFile": "/etc/ca.pem" },
    "local": { "legacyUrl": "http://127.0.0.1:8080", "aVersion": "v2", "qps": "auto" }
  }
}`;

/** The error a text gets, with its problems' lines. */
function refusal(text: string, source = '/home/me/.config/bizdata/connections.json'): ConnectionsError {
  try {
    parseConnectionsText(text, source);
  } catch (err) {
    assert.ok(err instanceof ConnectionsError, String(err));
    return err;
  }
  assert.fail('the text was accepted');
}

/** The document with one connection's fields replaced. */
function withConnection(fields: Record<string, unknown>, name = 'test', active = 'test'): string {
  return JSON.stringify({ active, connections: { [name]: fields } }, null, 2);
}

describe('connections file', () => {
  it('reads the format of issue 17, with defaults for what is left out', () => {
    const c = parseConnectionsText(GOOD, 'connections.json');
    assert.equal(c.active, 'test');
    assert.deepEqual(c.list.map((x) => x.name), ['test', 'production', 'local']);
    const [test, prod, local] = c.list;
    assert.deepEqual(test.endpoints, {
      authUrl: 'https://auth.test.example',
      baseUrl: 'https://api.test.example',
      legacyUrl: 'https://legacy.test.example',
      origin: 'https://app.example.com',
      authVersion: 'V2.0',
      orgVersion: 'V4.0',
      aVersion: 'v1',
    });
    assert.equal(test.production, false);
    assert.equal(test.qps, undefined);
    assert.deepEqual([prod.production, prod.qps, prod.concurrency, prod.coordinator, prod.proxy, prod.caFile], [true, 20, 4, 'redis://127.0.0.1:6379', 'http://proxy.corp:3128', '/etc/ca.pem']);
    // Today's defaults: no token or data host, Origin https://localhost, the spec's version segments; auto limits.
    assert.deepEqual(local.endpoints, { authUrl: '', baseUrl: '', legacyUrl: 'http://127.0.0.1:8080', origin: 'https://localhost', authVersion: 'V2.0', orgVersion: 'V4.0', aVersion: 'v2' });
    assert.equal(local.qps, undefined);
    assert.deepEqual(connectionHosts(prod), ['https://auth.example', 'https://api.example', 'https://legacy.example']);
    assert.ok(validate(JSON.parse(GOOD)), JSON.stringify(validate.errors));
  });

  it('reads a byte order mark and no active connection', () => {
    const c = parseConnectionsText('\uFEFF{"connections": {"a": {"legacyUrl": "https://x.example"}}}', 'f');
    assert.equal(c.active, undefined);
    assert.deepEqual(c.list.map((x) => x.name), ['a']);
  });

  it('refuses text that is not JSON, with the file and the line and column of the error', () => {
    const e = refusal('{\n  "connections": {\n    "a": { "legacyUrl": "https://x.example", }\n  }\n}', '/tmp/conns.json');
    assert.match(e.message, /^\/tmp\/conns\.json cannot be used/);
    assert.match(e.message, /\/tmp\/conns\.json:3:46: not valid JSON \(/);
    assert.deepEqual([e.problems[0].line, e.problems[0].column], [3, 46]);
    assert.match(refusal('{"connections": {} // mine\n}').message, /:1:20: not valid JSON/);
    assert.match(refusal('').message, /:1:1: not valid JSON/);
  });

  // Each bad input: the text, the place, and what the message must name.
  const cases: Array<{ what: string; text: string; at: [number, number]; says: RegExp; schema: boolean }> = [
    { what: 'a top that is no object', text: '[1]', at: [1, 1], says: /must be an object/, schema: false },
    { what: 'no "connections"', text: '{"active": "x"}', at: [1, 1], says: /"connections" must be an object/, schema: false },
    { what: 'an unknown top field', text: '{"connections": {}, "actve": "x"}', at: [1, 21], says: /unknown field "actve"/, schema: false },
    { what: 'a connection that is no object', text: withConnection(3 as unknown as Record<string, unknown>), at: [4, 13], says: /connection "test" must be an object/, schema: false },
    { what: 'an unknown field (a secret)', text: withConnection({ baseUrl: 'https://a.example', consumerSecret: 'x' }), at: [6, 7], says: /connection "test" has an unknown field "consumerSecret".*Credentials never go here/, schema: false },
    { what: 'plain http to another host', text: withConnection({ baseUrl: 'http://api.example.com' }), at: [5, 18], says: /connection "test", field "baseUrl" uses plain http:\/\/ to api\.example\.com.*Use https:\/\//, schema: true },
    { what: 'an address that is no URL', text: withConnection({ legacyUrl: 'legacy.example.com' }), at: [5, 20], says: /connection "test", field "legacyUrl" "legacy\.example\.com" has no scheme: write https:\/\/legacy\.example\.com/, schema: false },
    { what: 'a user and password in an address', text: withConnection({ authUrl: 'https://me:pw@auth.example' }), at: [5, 18], says: /connection "test", field "authUrl" contains a user name or password/, schema: true },
    { what: 'ftp', text: withConnection({ authUrl: 'ftp://auth.example' }), at: [5, 18], says: /field "authUrl" must start with https:\/\//, schema: false },
    { what: 'no address at all', text: withConnection({ origin: 'https://app.example' }), at: [4, 13], says: /connection "test" has no address/, schema: false },
    { what: 'an empty origin', text: withConnection({ baseUrl: 'https://a.example', origin: '' }), at: [6, 17], says: /connection "test", field "origin" must be a non-empty text/, schema: false },
    { what: 'an origin with a line break', text: withConnection({ baseUrl: 'https://a.example', origin: 'https://a\nb' }), at: [6, 17], says: /field "origin" contains a line break/, schema: true },
    { what: 'a version that is no segment', text: withConnection({ baseUrl: 'https://a.example', aVersion: 'v1/x' }), at: [6, 19], says: /connection "test", field "aVersion" must be one path segment/, schema: false },
    { what: 'a qps of 0', text: withConnection({ baseUrl: 'https://a.example', qps: 0 }), at: [6, 14], says: /connection "test", field "qps" must be a positive number or "auto", not 0/, schema: false },
    { what: 'a fractional concurrency', text: withConnection({ baseUrl: 'https://a.example', concurrency: 1.5 }), at: [6, 22], says: /field "concurrency" must be a positive whole number or "auto", not 1\.5/, schema: false },
    { what: 'a coordinator that is not Redis', text: withConnection({ baseUrl: 'https://a.example', coordinator: 'http://r:6379' }), at: [6, 22], says: /field "coordinator" must be redis:\/\/HOST:PORT/, schema: false },
    { what: 'a coordinator with a password', text: withConnection({ baseUrl: 'https://a.example', coordinator: 'redis://:pw@r:6379' }), at: [6, 22], says: /field "coordinator" contains a user name or password/, schema: true },
    { what: 'a proxy that is no address', text: withConnection({ baseUrl: 'https://a.example', proxy: 'proxy:3128' }), at: [6, 16], says: /field "proxy" must be an HTTP proxy address/, schema: false },
    { what: 'a production that is text', text: withConnection({ baseUrl: 'https://a.example', production: 'yes' }), at: [6, 21], says: /connection "test", field "production" must be true or false, not "yes"/, schema: false },
    { what: 'the reserved name', text: withConnection({ baseUrl: 'https://a.example' }, 'sandbox', 'sandbox'), at: [4, 5], says: /"sandbox" is the name of the local sandbox/, schema: false },
    {
      // Its credential variables would be BIZDATA_COORDINATOR_USER and _PASSWORD, the Redis coordinator's.
      what: "a name whose credential variables are the client's own",
      text: withConnection({ baseUrl: 'https://a.example' }, 'Coordinator', 'Coordinator'),
      at: [4, 5],
      says: /connection "Coordinator" would take its credentials from BIZDATA_COORDINATOR_USER \(the Redis coordinator's user\) and BIZDATA_COORDINATOR_PASSWORD \(the Redis coordinator's password\), which this client reads for itself; give the connection another name, such as "Coordinator-api"\./,
      schema: false,
    },
    { what: 'a name with a space', text: withConnection({ baseUrl: 'https://a.example' }, 'my test', 'my test'), at: [4, 5], says: /"my test" is not a connection name/, schema: false },
    { what: 'an unknown active', text: withConnection({ baseUrl: 'https://a.example' }, 'test', 'prod'), at: [2, 13], says: /"active" names "prod", which is no connection here; use one of test, sandbox/, schema: true },
    {
      what: 'a duplicate name',
      text: '{"connections": {\n  "test": {"baseUrl": "https://a.example"},\n  "test": {"baseUrl": "https://b.example"}\n}}',
      at: [3, 3],
      says: /connection "test" is defined twice/,
      schema: true,
    },
    {
      what: 'names that differ only in case',
      text: '{"connections": {\n  "Test": {"baseUrl": "https://a.example"},\n  "test": {"baseUrl": "https://b.example"}\n}}',
      at: [3, 3],
      says: /connection "test" is defined twice \(as "Test" too/,
      schema: true,
    },
    {
      // Their credential variables would be one: BIZDATA_EU_PROD_USER for both.
      what: 'names that differ only in "-" and "_"',
      text: '{"connections": {\n  "eu-prod": {"baseUrl": "https://a.example"},\n  "EU_prod": {"baseUrl": "https://b.example"}\n}}',
      at: [3, 3],
      says: /connection "EU_prod" is defined twice \(as "eu-prod" too: .*one set of credential variables/,
      schema: true,
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.what}, naming it at its line and column`, () => {
      const e = refusal(c.text, 'conns.json');
      assert.equal(e.problems.length, 1, e.message);
      assert.deepEqual([e.problems[0].line, e.problems[0].column], c.at, e.message);
      assert.match(e.message, new RegExp(`conns\\.json:${c.at[0]}:${c.at[1]}: `));
      assert.match(e.message, c.says);
      // The schema refuses what it can express; the rest (loopback http, duplicates, a known active) is the parser's alone.
      if (!c.schema) assert.equal(validate(JSON.parse(c.text)), false, `the schema accepts ${c.what}`);
    });
  }

  it('lists every problem at once, in line order', () => {
    const e = refusal(JSON.stringify({ active: 'nope', connections: { a: { baseUrl: 'http://x.example', qps: -1 }, b: { legacyUrl: 'https://y.example', production: 1 } } }, null, 2));
    assert.deepEqual(
      e.problems.map((p) => p.line),
      [2, 5, 6, 10],
    );
    assert.match(e.message, /4 problems/);
  });

  it('refuses two names with one set of credential variables in a value (the extension setting) too', () => {
    assert.throws(
      () => readConnectionsValue({ connections: { 'eu.prod': { baseUrl: 'https://a.example' }, eu_prod: { baseUrl: 'https://b.example' } } }, 'bizdata.connections'),
      (e: Error) => /connection "eu_prod" is defined twice \(as "eu\.prod" too/.test(e.message),
    );
  });

  it('reads the same document as a value (the extension setting), naming the path of a problem', () => {
    const c = readConnectionsValue(JSON.parse(GOOD), 'bizdata.connections');
    assert.deepEqual(c.list.map((x) => x.name), ['test', 'production', 'local']);
    assert.throws(
      () => readConnectionsValue({ connections: { prod: { baseUrl: 'http://api.example.com' } } }, 'bizdata.connections'),
      (e: unknown) => e instanceof ConnectionsError && /bizdata\.connections connections\.prod\.baseUrl: connection "prod", field "baseUrl" uses plain http/.test(e.message),
    );
  });

  it('allows plain http to loopback only', () => {
    for (const host of ['127.0.0.1:8080', 'localhost:1', '[::1]:9']) {
      assert.equal(parseConnectionsText(withConnection({ baseUrl: `http://${host}` }), 'f').list[0].endpoints.baseUrl, `http://${host}`);
    }
  });
});

describe('choosing a connection', () => {
  const conns = parseConnectionsText(GOOD, '/x/connections.json');

  it('finds one by name; an unknown name is refused with the names there are', () => {
    assert.equal(findConnection(conns, 'production').production, true);
    assert.throws(
      () => findConnection(conns, 'prod'),
      (e: unknown) => e instanceof UnknownConnectionError && e.message === 'No connection is named "prod" in /x/connections.json. The connections are: test, production, local, sandbox.',
    );
    assert.throws(() => findConnection(undefined, 'test'), /No connection is named "test"\. The connections are: sandbox\./);
  });

  it('knows the sandbox as a connection of its own, wherever it listens', () => {
    const s = findConnection(conns, SANDBOX_CONNECTION, 'http://127.0.0.1:4321/');
    assert.deepEqual([s.name, s.sandbox, s.endpoints.authUrl, s.endpoints.legacyUrl, s.endpoints.origin], ['sandbox', true, 'http://127.0.0.1:4321', 'http://127.0.0.1:4321', 'http://127.0.0.1:4321']);
    assert.throws(() => findConnection(conns, SANDBOX_CONNECTION), /no sandbox address is known/);
    assert.equal(sandboxConnection('http://[::1]:9').endpoints.baseUrl, 'http://[::1]:9');
  });

  it('gives a request file its connection variables', () => {
    assert.deepEqual(connectionVariables(findConnection(conns, 'local').endpoints), {
      baseUrl: '',
      authUrl: '',
      legacyUrl: 'http://127.0.0.1:8080',
      origin: 'https://localhost',
      aVersion: 'v2',
      authVersion: 'V2.0',
      orgVersion: 'V4.0',
    });
  });
});

describe('migrating the single endpoint settings', () => {
  it('turns them into the active connection "default", writing only what differs from the defaults', () => {
    const doc = migrateEndpointSettings({
      authUrl: ' https://auth.example/ ',
      baseUrl: 'https://api.example',
      legacyUrl: '',
      origin: 'https://localhost',
      aVersion: 'v1',
      authVersion: 'V3.0',
      qps: 0,
      concurrency: 4,
      coordinator: 'rediss://r.example:6380',
      proxy: '',
    });
    assert.deepEqual(doc, {
      active: DEFAULT_CONNECTION,
      connections: { default: { authUrl: 'https://auth.example', baseUrl: 'https://api.example', authVersion: 'V3.0', concurrency: 4, coordinator: 'rediss://r.example:6380' } },
    });
    // What it writes reads back as the same endpoints, and the schema accepts it.
    const read = readConnectionsValue(doc, 'bizdata.connections');
    assert.equal(read.active, 'default');
    assert.deepEqual(read.list[0].endpoints, { authUrl: 'https://auth.example', baseUrl: 'https://api.example', legacyUrl: '', origin: 'https://localhost', authVersion: 'V3.0', orgVersion: 'V4.0', aVersion: 'v1' });
    assert.ok(validate(doc), JSON.stringify(validate.errors));
  });

  it('migrates nothing when no address was ever set', () => {
    assert.equal(migrateEndpointSettings({ origin: 'https://app.example', qps: 5 }), undefined);
    assert.equal(migrateEndpointSettings({}), undefined);
  });
});

// The window's connections from the settings' values: the user's bizdata.connections through the
// core's checks, today's bizdata.endpoints.* as `default` until removed, each connection's client
// settings with the window's own as fallback; and package.json's setting schema is the schema file.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectionTable, hasEndpointSettings } from '../../../src/features/connection/connectionTable';
import { readUserConnections } from '../../../src/features/connection/connectionSetting';

const ROOT = join(__dirname, '..', '..', '..', '..');
const reader = (values: Record<string, unknown>) => ({ get: <T>(k: string) => values[k] as T | undefined });
const TWO = {
  active: 'prod',
  connections: {
    test: { authUrl: 'https://auth.test.example', baseUrl: 'https://api.test.example', legacyUrl: 'https://legacy.test.example', origin: 'https://me.example' },
    prod: { baseUrl: 'https://api.example', authUrl: 'https://auth.example', production: true, qps: 20, proxy: 'http://proxy.corp:3128' },
  },
};

describe('the window connections', () => {
  it('reads the user setting through the core and keeps its order, its active one and its production mark', () => {
    const read = readUserConnections(TWO);
    assert.deepEqual(read.problems, []);
    const table = connectionTable(reader({}), read.definitions, read.active);
    assert.deepEqual(table.connections.map((c) => c.name), ['test', 'prod']);
    assert.equal(table.active, 'prod');
    assert.deepEqual(table.connections.map((c) => c.production), [false, true]);
    assert.equal(table.connections[0].settings.endpoints.legacyUrl, 'https://legacy.test.example');
  });

  it('takes what a connection leaves out from the window settings, and its own proxy, caps and CA over them', () => {
    const window = reader({ 'bizdata.limits.concurrency': 3, 'bizdata.network.caFile': '/etc/ca.pem', 'http.proxy': 'http://editor-proxy:8080', 'http.noProxy': ['intra'] });
    const [test, prod] = connectionTable(window, readUserConnections(TWO).definitions, undefined).connections;
    assert.deepEqual(test.settings.limits, { qps: Infinity, concurrency: 3 });
    assert.equal(test.settings.http.proxyUrl, 'http://editor-proxy:8080');
    assert.deepEqual(test.settings.http.noProxy, ['intra']);
    assert.deepEqual(prod.settings.limits, { qps: 20, concurrency: 3 });
    assert.equal(prod.settings.http.proxyUrl, 'http://proxy.corp:3128');
    assert.equal(prod.settings.http.noProxy, undefined, "the editor's exceptions belong to the editor's proxy");
    assert.equal(prod.settings.http.caFile, '/etc/ca.pem');
  });

  it('makes today\'s bizdata.endpoints.* the connection "default", beside the user\'s, until they are removed', () => {
    const old = reader({ 'bizdata.endpoints.baseUrl': 'https://old.example/', 'bizdata.endpoints.authUrl': 'https://old-auth.example' });
    assert.ok(hasEndpointSettings(old));
    const table = connectionTable(old, readUserConnections(TWO).definitions, undefined);
    assert.deepEqual(table.connections.map((c) => [c.name, c.from]), [['test', 'setting'], ['prod', 'setting'], ['default', 'endpoints']]);
    assert.equal(table.connections[2].settings.endpoints.baseUrl, 'https://old.example');
    // Removed: no `default` beside connections of the user's own.
    assert.deepEqual(connectionTable(reader({}), readUserConnections(TWO).definitions, undefined).connections.map((c) => c.name), ['test', 'prod']);
    // Nothing set at all: `default` is there, empty, for the "set an address" message.
    const none = connectionTable(reader({}), [], undefined).connections;
    assert.deepEqual(none.map((c) => [c.name, c.settings.endpoints.baseUrl]), [['default', '']]);
  });

  it('lets a `default` of the user setting win over the old settings', () => {
    const old = reader({ 'bizdata.endpoints.baseUrl': 'https://old.example' });
    const read = readUserConnections({ connections: { default: { baseUrl: 'https://new.example', authUrl: 'https://new.example' } } });
    const table = connectionTable(old, read.definitions, read.active);
    assert.deepEqual(table.connections.map((c) => [c.name, c.settings.endpoints.baseUrl]), [['default', 'https://new.example']]);
  });

  it('uses none of a setting the core refuses, and says why with the connection and the field', () => {
    const read = readUserConnections({ connections: { evil: { baseUrl: 'http://attacker.example' }, ok: { baseUrl: 'https://fine.example' } } });
    assert.deepEqual(read.definitions, []);
    assert.equal(read.problems.length, 1);
    assert.match(read.problems[0], /connections\.evil\.baseUrl/);
    assert.match(read.problems[0], /plain http:\/\/ to attacker\.example/);
    assert.match(read.problems[0], /not used until it is fixed/);
  });

  it("declares the setting with the schema of schemas/connections.schema.json (references expanded), in machine scope", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Record<string, unknown>> } } };
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'connections.schema.json'), 'utf8')) as Record<string, unknown> & { definitions: Record<string, unknown> };
    const expand = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(expand);
      if (v === null || typeof v !== 'object') return v;
      const { $ref, ...rest } = v as Record<string, unknown>;
      const own = Object.fromEntries(Object.entries(rest).map(([k, x]) => [k, expand(x)]));
      return typeof $ref === 'string' ? { ...(expand(schema.definitions[$ref.replace('#/definitions/', '')]) as object), ...own } : own;
    };
    const { $schema, $id, title, definitions, description, ...body } = schema;
    void [$schema, $id, title, definitions, description];
    const setting = pkg.contributes.configuration.properties['bizdata.connections'];
    const { default: dflt, type, markdownDescription, scope, order, ...declared } = setting;
    void [dflt, markdownDescription, order];
    assert.equal(scope, 'machine');
    assert.deepEqual(type, ['object', 'null']);
    const { type: bodyType, ...bodyRest } = expand(body) as Record<string, unknown>;
    assert.equal(bodyType, 'object');
    assert.deepEqual(declared, bodyRest);
    assert.equal(pkg.contributes.configuration.properties['bizdata.preferredConnection'].scope, 'resource');
  });
});

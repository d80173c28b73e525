import * as assert from 'node:assert/strict';
import { PARSE_IN_HOST_BYTES, readConnectionSettings } from '../../../src/features/connection/settings';

describe('connection settings', () => {
  it('reads defaults and trims trailing slashes', () => {
    const values: Record<string, unknown> = { 'bizdata.endpoints.baseUrl': 'https://api.example.com/', 'bizdata.limits.qps': -1 };
    const s = readConnectionSettings({ get: <T>(k: string) => values[k] as T | undefined });
    assert.equal(s.endpoints.baseUrl, 'https://api.example.com');
    assert.equal(s.endpoints.authVersion, 'V2.0');
    assert.equal(s.endpoints.orgVersion, 'V4.0');
    // bizdata.limits.* are caps; a value that is not a positive number is no cap: auto (the default).
    assert.equal(s.limits.qps, Infinity);
    assert.equal(s.limits.concurrency, Infinity);
    assert.equal(s.redisUrl, undefined);
  });

  it('reads caps and the coordinator address', () => {
    const values: Record<string, unknown> = { 'bizdata.limits.qps': 20, 'bizdata.limits.concurrency': 3, 'bizdata.coordination.redisUrl': ' redis://10.0.0.5:6379 ' };
    const s = readConnectionSettings({ get: <T>(k: string) => values[k] as T | undefined });
    assert.deepEqual(s.limits, { qps: 20, concurrency: 3 });
    assert.equal(s.redisUrl, 'redis://10.0.0.5:6379');
  });

  it("reads Interface A's version segment and the request deadline", () => {
    const read = (values: Record<string, unknown>) => readConnectionSettings({ get: <T>(k: string) => values[k] as T | undefined });
    assert.equal(read({}).endpoints.aVersion, 'v1');
    assert.equal(read({}).http.requestTimeoutMs, 60_000);
    const s = read({ 'bizdata.endpoints.aVersion': 'v2', 'bizdata.timeouts.requestMs': 5000 });
    assert.deepEqual([s.endpoints.aVersion, s.http.requestTimeoutMs], ['v2', 5000]);
  });

  it('accepts answers up to bizdata.network.maxResponseMB, and leaves large ones for the worker to parse', () => {
    const read = (values: Record<string, unknown>) => readConnectionSettings({ get: <T>(k: string) => values[k] as T | undefined }).http;
    assert.equal(read({}).maxBodyBytes, 100 * 1024 * 1024);
    assert.equal(read({ 'bizdata.network.maxResponseMB': 0.5 }).maxBodyBytes, 512 * 1024);
    assert.equal(read({ 'bizdata.network.maxResponseMB': -3 }).maxBodyBytes, 100 * 1024 * 1024);
    assert.equal(read({}).maxParseBytes, PARSE_IN_HOST_BYTES);
  });

  it("uses VS Code's http.proxy, http.noProxy and http.proxyStrictSSL only when bizdata.network.proxy is empty", () => {
    const read = (values: Record<string, unknown>) => readConnectionSettings({ get: <T>(k: string) => values[k] as T | undefined }).http;
    const editor = { 'http.proxy': 'http://proxy.corp:3128', 'http.noProxy': ['.internal.example', 7], 'http.proxyStrictSSL': false };
    assert.deepEqual([read(editor).proxyUrl, read(editor).noProxy, read(editor).proxyStrictSSL], ['http://proxy.corp:3128', ['.internal.example'], false]);
    const own = read({ ...editor, 'bizdata.network.proxy': 'http://own:8080' });
    assert.deepEqual([own.proxyUrl, own.noProxy, own.proxyStrictSSL], ['http://own:8080', undefined, undefined]);
    assert.equal(read({}).proxyUrl, undefined);
  });
});

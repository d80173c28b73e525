import * as assert from 'node:assert/strict';
import { readConnectionSettings } from '../../../src/features/connection/settings';

describe('connection settings', () => {
  it('reads defaults and trims trailing slashes', () => {
    const values: Record<string, unknown> = { 'bizdata.endpoints.baseUrl': 'https://api.example.com/', 'bizdata.limits.qps': -1 };
    const s = readConnectionSettings({ get: <T>(k: string) => values[k] as T | undefined });
    assert.equal(s.endpoints.baseUrl, 'https://api.example.com');
    assert.equal(s.endpoints.authVersion, 'V2.0');
    assert.equal(s.endpoints.orgVersion, 'V4.0');
    assert.equal(s.limits.qps, 5);
  });
});

import * as assert from 'node:assert/strict';
import { checkServiceUrl } from '../../../src/core/http/serviceUrls';

describe('service URLs', () => {
  it('allows https anywhere and plain http only to loopback', () => {
    assert.equal(checkServiceUrl('x', 'https://api.example.com'), undefined);
    for (const ok of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:9']) assert.equal(checkServiceUrl('x', ok), undefined, ok);
    for (const bad of ['http://api.example.com', 'http://10.0.0.1', 'http://127.0.0.1.example.com', 'ftp://x', 'nope']) assert.ok(checkServiceUrl('x', bad), bad);
  });
});

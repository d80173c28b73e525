import * as assert from 'node:assert/strict';
import { bypassesProxy } from '../../../src/core/http/noProxy';

describe('noProxy (VS Code http.noProxy)', () => {
  it('matches hosts, domains with their subdomains, ports and *', () => {
    const list = ['internal.example', '*.corp.example', '.lab.example', 'api.other.example:8443', '[::1]'];
    assert.equal(bypassesProxy('https://internal.example', list), true);
    assert.equal(bypassesProxy('https://a.internal.example', list), true);
    assert.equal(bypassesProxy('https://x.corp.example', list), true);
    assert.equal(bypassesProxy('https://lab.example', list), true);
    assert.equal(bypassesProxy('https://api.other.example:8443', list), true);
    assert.equal(bypassesProxy('https://api.other.example', list), false, 'other port');
    assert.equal(bypassesProxy('http://[::1]:9000', list), true);
    assert.equal(bypassesProxy('https://notinternal.example', list), false);
    assert.equal(bypassesProxy('https://api.example.com', list), false);
    assert.equal(bypassesProxy('https://anything', ['*']), true);
  });
});

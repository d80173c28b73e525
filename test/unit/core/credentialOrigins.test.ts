// Where credentials may go: only to the exact origin (scheme, host, port, as the WHATWG URL parser
// writes them) of an interface's configured service address. The rule itself; credentialListeners.test.ts
// shows the client keeping to it against listeners of the test's own.
import * as assert from 'node:assert/strict';
import { accountKey } from '../../../src/core/accounts/session';
import type { Endpoints, InterfaceId } from '../../../src/core/model';
import { CredentialGate, credentialOrigins, credentialRefusal, exactOrigin, mayCarryCredentials } from '../../../src/core/protocol/credentialOrigins';
import { endpointsFor, GOOD } from './harness';

const at = (url: string, more: Partial<Endpoints> = {}): Endpoints => ({ ...endpointsFor(url), ...more });
const SPLIT = at('https://auth.example.com', { baseUrl: 'https://API.example.com:443/base/', legacyUrl: 'https://legacy.example.com:8443' });

describe('where credentials may go', () => {
  it('normalises with the URL parser: case, default port, IPv4 and IPv6 forms; nothing else', () => {
    assert.equal(exactOrigin('HTTPS://API.Example.COM:443/x?y'), 'https://api.example.com');
    assert.equal(exactOrigin('http://127.1:80/'), 'http://127.0.0.1');
    assert.equal(exactOrigin('http://0x7f.0.0.1:8080'), 'http://127.0.0.1:8080');
    assert.equal(exactOrigin('http://[0:0:0:0:0:0:0:1]:8080/'), 'http://[::1]:8080');
    assert.equal(exactOrigin('http://localhost.:8080'), 'http://localhost.:8080', 'a final dot is kept');
    assert.equal(exactOrigin('ftp://api.example.com'), undefined);
    assert.equal(exactOrigin('not a url'), undefined);
  });

  it('lets a credential go only to the exact origin of one of the interface\'s own addresses', () => {
    const may = (url: string, id: InterfaceId): boolean => mayCarryCredentials(url, SPLIT, id);
    assert.deepEqual(credentialOrigins(SPLIT, 'a'), ['https://auth.example.com', 'https://api.example.com']);
    assert.deepEqual(credentialOrigins(SPLIT, 'b'), ['https://legacy.example.com:8443']);
    for (const ok of ['https://auth.example.com/v1/token', 'https://API.EXAMPLE.COM/v1/x', 'https://api.example.com:443/other', 'https://Auth.Example.Com:443']) assert.ok(may(ok, 'a'), ok);
    for (const no of ['http://api.example.com/v1/x', 'https://api.example.com:8443/', 'https://api.example.com./v1/x', 'https://x.api.example.com/', 'https://legacy.example.com:8443/', 'ftp://api.example.com/', '/v1/x']) assert.ok(!may(no, 'a'), no);
    assert.ok(may('https://LEGACY.example.com:8443/V4.0/organizations', 'b'));
    for (const no of ['https://legacy.example.com/V4.0/x', 'https://legacy.example.com.:8443/', 'https://auth.example.com/']) assert.ok(!may(no, 'b'), no);
  });

  it('the gate before every request answers as the rule does, every time, whatever it answered before', () => {
    const gate = new CredentialGate(SPLIT);
    const urls = ['https://API.example.com', 'https://api.example.com', 'https://api.example.com:8443', 'https://legacy.example.com:8443', 'http://api.example.com', 'https://evil.example.com'];
    for (let round = 0; round < 3; round++) {
      for (const url of urls) for (const id of ['a', 'b'] as const) assert.equal(gate.refusal(url, id), credentialRefusal(url, SPLIT, id), `${url} ${id} round ${round}`);
    }
  });

  it('counts localhost, 127.0.0.1 and [::1] as three hosts, and a port spelled out as the default one', () => {
    const v4 = at('http://127.0.0.1:8080');
    for (const ok of ['http://127.0.0.1:8080/v1/x', 'http://127.1:8080/', 'http://0x7f.0.0.1:8080/', 'http://127.0.0.1.:8080/']) assert.ok(mayCarryCredentials(ok, v4, 'a'), ok);
    for (const no of ['http://localhost:8080/', 'http://LOCALHOST:8080/', 'http://[::1]:8080/', 'http://[::ffff:127.0.0.1]:8080/', 'http://127.0.0.2:8080/', 'http://127.0.0.1:8081/', 'http://127.0.0.1/', 'https://127.0.0.1:8080/']) {
      assert.ok(!mayCarryCredentials(no, v4, 'a') && !mayCarryCredentials(no, v4, 'b'), no);
    }
    const v6 = at('http://[::1]:8080');
    for (const ok of ['http://[::1]:8080/', 'http://[0:0:0:0:0:0:0:1]:8080/', 'http://[::0:1]:8080/']) assert.ok(mayCarryCredentials(ok, v6, 'b'), ok);
    for (const no of ['http://127.0.0.1:8080/', 'http://localhost:8080/', 'http://[::2]:8080/']) assert.ok(!mayCarryCredentials(no, v6, 'b'), no);
    const named = at('http://localhost:8080');
    assert.ok(mayCarryCredentials('http://LocalHost:8080/x', named, 'a'));
    for (const no of ['http://localhost.:8080/', 'http://127.0.0.1:8080/', 'http://[::1]:8080/']) assert.ok(!mayCarryCredentials(no, named, 'a'), no);
    assert.ok(mayCarryCredentials('http://127.0.0.1:80/', at('http://127.0.0.1'), 'a'));
    assert.ok(!mayCarryCredentials('http://127.0.0.1:443/', at('http://127.0.0.1'), 'a'));
  });

  it('keeps one account key for every spelling of the same loopback service (one guard count, one budget)', () => {
    const keys = ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'http://127.1:8080'].map((u) => accountKey(at(u), GOOD.b));
    assert.equal(new Set(keys).size, 1, keys.join(' '));
  });

  it('names the host the request goes to and the hosts the token may go to', () => {
    const text = credentialRefusal('http://[::1]:8080/v1/x', at('http://127.0.0.1:8080'), 'a') ?? '';
    assert.match(text, /goes to http:\/\/\[::1\]:8080, which is not a service host of Interface A: its token goes only to http:\/\/127\.0\.0\.1:8080 /);
    assert.match(text, /localhost, 127\.0\.0\.1 and \[::1\] are different hosts/);
    assert.match(credentialRefusal('https://api.example.com./x', SPLIT, 'b') ?? '', /goes to https:\/\/api\.example\.com\., .* only to https:\/\/legacy\.example\.com:8443 /);
    assert.equal(credentialRefusal('https://api.example.com/x', SPLIT, 'a'), undefined);
  });
});

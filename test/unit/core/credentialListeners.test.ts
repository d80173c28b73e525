// The client and its exchange against a real sandbox and plain listeners of the test's own on the
// other spellings of the service's loopback address ([::1] beside 127.0.0.1 and the reverse,
// localhost, another port): not one request carrying a credential reaches them.
import * as assert from 'node:assert/strict';
import { Exchange } from '../../../src/core/exchange/exchange';
import { HttpTransport } from '../../../src/core/http/http';
import { RateLimiter } from '../../../src/core/limits/limiter';
import { authRequestB, newTransactionDetail, operationRequest, tokenRequestA } from '../../../src/core/protocol/protocol';
import { CANARY, endpointsFor, sandbox, testClient, type Sandbox, type TestClient } from './harness';
import { startListener, withCredentials, type Listener } from './listeners';

const KEY = { interfaceId: 'a', consumerKey: CANARY.consumerKey, consumerSecret: CANARY.consumerSecret } as const;
const USER = { interfaceId: 'b', user: CANARY.user, password: CANARY.password } as const;
const SECRETS = [CANARY.consumerKey, CANARY.consumerSecret, CANARY.user, CANARY.password, Buffer.from(`${CANARY.consumerKey}:${CANARY.consumerSecret}`).toString('base64')];

describe('no credential reaches a listener on another spelling of the service', () => {
  let sb: Sandbox | undefined;
  let t: TestClient | undefined;
  const listeners: Listener[] = [];

  afterEach(async () => {
    await t?.client.dispose();
    await Promise.all(listeners.splice(0).map((l) => l.close()));
    await sb?.close();
    t = sb = undefined;
  });

  const everything = (): string => JSON.stringify(listeners.map((l) => l.received));

  it('service on 127.0.0.1: [::1] on its port, and 127.0.0.1 on another port, get no request from the client', async () => {
    sb = await sandbox();
    const port = Number(new URL(sb.url).port);
    listeners.push(await startListener('::1', port), await startListener('127.0.0.1'));
    t = testClient(sb.url);
    const before = (await sb.stats()).requests;
    for (const base of [`http://[::1]:${port}`, `http://[0:0:0:0:0:0:0:1]:${port}`, listeners[1].url]) {
      for (const id of ['a', 'b'] as const) {
        const r = await t.client.send({ interfaceId: id, method: 'GET', url: `${base}/${id === 'a' ? 'v1/duns-search/ip/203.0.113.7' : 'V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=X&match=true'}`, headers: {} });
        assert.ok(!r.ok && r.kind === 'input', `${base} ${id}: ${JSON.stringify(r)}`);
        assert.match(r.text, new RegExp(`only to ${sb.url.replace(/[.[\]]/g, '\\$&')} `));
      }
    }
    assert.equal(everything(), '[[],[]]');
    assert.equal((await sb.stats()).requests, before, 'not even a sign-in was sent');
    // The service itself, spelled as the parser writes it, is reached as ever.
    assert.ok((await t.client.send({ interfaceId: 'a', method: 'GET', url: `http://127.1:${port}/v1/duns-search/ip/203.0.113.7`, headers: {} })).ok);
  });

  it('service on [::1]: 127.0.0.1 and localhost on its port, and [::1] on another port, get no request from the client', async () => {
    sb = await sandbox({}, undefined, '::1');
    const port = Number(new URL(sb.url).port);
    listeners.push(await startListener('127.0.0.1', port), await startListener('::1'));
    t = testClient(sb.url);
    for (const base of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://127.1:${port}`, listeners[1].url]) {
      for (const id of ['a', 'b'] as const) {
        const r = await t.client.send({ interfaceId: id, method: 'POST', url: `${base}/${id === 'a' ? 'v1' : 'V4.0'}/anything`, headers: {}, body: '{}' });
        assert.ok(!r.ok && r.kind === 'input', `${base} ${id}`);
        assert.match(r.text, /which is not a service host of Interface [AB]: its token goes only to http:\/\/\[::1\]:\d+ /);
      }
    }
    assert.ok((await t.client.lookupIp({ ip: '203.0.113.7' })).ok, 'the service on [::1] works');
    assert.ok((await t.client.send({ interfaceId: 'b', method: 'GET', url: `http://[0::1]:${port}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=X&match=true`, headers: {} })).ok);
    assert.equal(everything(), '[[],[]]');
  });

  it('the exchange itself refuses a request built with a credential for another origin: token, Basic key:secret, user and password', async () => {
    sb = await sandbox();
    const trap = await startListener('::1', Number(new URL(sb.url).port));
    listeners.push(trap);
    const endpoints = endpointsFor(sb.url);
    const elsewhere = endpointsFor(trap.url);
    const lifetime = new AbortController();
    const limiter = new RateLimiter({ qps: 100, concurrency: 4 });
    const http = new HttpTransport();
    const exchange = new Exchange({ http, endpoints, limiter, lifetime: lifetime.signal, redact: (s) => s });
    try {
      const built = [
        tokenRequestA(elsewhere, KEY),
        authRequestB(elsewhere, USER, newTransactionDetail()),
        operationRequest(elsewhere, { interfaceId: 'a', method: 'GET', url: `${trap.url}/v1/x`, headers: {} }, 'bearer-token-1234567890'),
        operationRequest(elsewhere, { interfaceId: 'b', method: 'GET', url: `${trap.url}/V4.0/x`, headers: {} }, 'raw-token-1234567890'),
      ];
      for (const b of built) {
        const r = await exchange.run(b, undefined, performance.now());
        assert.ok(!('res' in r) && r.kind === 'input' && !r.mayHaveReached, JSON.stringify(r));
        assert.match(r.text, /not a service host of Interface [AB]/);
      }
      assert.deepEqual(withCredentials(trap.received, [...SECRETS, 'token-1234567890']), []);
      assert.equal(trap.received.length, 0);
      // The same exchange sends to the service's own origin.
      assert.ok('res' in (await exchange.run(tokenRequestA(endpoints, KEY), undefined, performance.now())));
    } finally {
      lifetime.abort();
      limiter.dispose();
      await http.destroy();
    }
  });
});

import * as assert from 'node:assert/strict';
import { toCurl, PLACEHOLDER } from '../../../src/core/curl';
import { checkServiceUrl } from '../../../src/core/http';
import { RateLimiter } from '../../../src/core/limiter';
import { readServiceCode, readTokenA, readTokenB, newTransactionDetail } from '../../../src/core/protocol';
import { maskAccount, redact, REDACTED } from '../../../src/core/redact';

describe('redaction', () => {
  it('hides known secrets in raw, URL-encoded and JSON-escaped forms', () => {
    const s = 'p@ss/"word"';
    const text = `a ${s} b ${encodeURIComponent(s)} c ${JSON.stringify(s)}`;
    const out = redact(text, [s]);
    assert.ok(!out.includes('p@ss'), out);
  });

  it('hides credential-bearing fields it was not told about', () => {
    const out = redact('Authorization: Bearer abcdefghijkl\nauthorization: RAWTOKEN123\nx-svc-pwd: hunter22\n{"access_token":"tok","password":"pw"}\nAuthorization: INVALID CREDENTIALS', []);
    for (const secret of ['abcdefghijkl', 'RAWTOKEN123', 'hunter22', '"tok"', '"pw"']) assert.ok(!out.includes(secret), `${secret} in ${out}`);
    assert.ok(out.includes('INVALID CREDENTIALS'));
    assert.ok(out.includes(`Bearer ${REDACTED}`));
  });

  it('leaves placeholders alone and masks account names', () => {
    assert.equal(redact(`Authorization: Bearer ${PLACEHOLDER.token}`), `Authorization: Bearer ${PLACEHOLDER.token}`);
    assert.equal(maskAccount('sandbox-user'), 'sa********er');
    assert.equal(maskAccount('abc'), '***');
  });
});

describe('copy as curl', () => {
  const record = {
    method: 'GET' as const,
    url: 'https://api.example.com/v1/duns-search/ip/203.0.113.7?view=standard',
    headers: { accept: 'application/json', 'accept-encoding': 'gzip', authorization: `Bearer ${PLACEHOLDER.token}`, origin: "https://o'rigin" },
  };

  it('shows placeholders unless a secret is passed explicitly', () => {
    const plain = toCurl(record);
    assert.match(plain, /--header 'authorization: Bearer <TOKEN>'/);
    assert.match(plain, /'https:\/\/api\.example\.com\/v1\/duns-search\/ip\/203\.0\.113\.7\?view=standard'/);
    assert.ok(!plain.includes('accept-encoding'));
    assert.match(plain, /'origin: https:\/\/o'\\''rigin'/);
    assert.match(toCurl(record, { token: 'T0K' }), /Bearer T0K/);
  });

  it('fills the Basic credential only from both key and secret', () => {
    const token = { method: 'POST' as const, url: 'https://auth.example.com/v1/token', headers: { authorization: `Basic ${PLACEHOLDER.basic}` }, body: '{"grant_type":"client_credentials"}' };
    assert.match(toCurl(token), /--request POST .*Basic <BASE64_KEY_COLON_SECRET>.*--data-raw '\{"grant_type":"client_credentials"\}'/);
    assert.match(toCurl(token, { consumerKey: 'k', consumerSecret: 's' }), new RegExp(`Basic ${Buffer.from('k:s').toString('base64')}`));
  });
});

describe('service URLs', () => {
  it('allows https anywhere and plain http only to loopback', () => {
    assert.equal(checkServiceUrl('x', 'https://api.example.com'), undefined);
    for (const ok of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:9']) assert.equal(checkServiceUrl('x', ok), undefined, ok);
    for (const bad of ['http://api.example.com', 'http://10.0.0.1', 'http://127.0.0.1.example.com', 'ftp://x', 'nope']) assert.ok(checkServiceUrl('x', bad), bad);
  });
});

describe('protocol readers', () => {
  const res = (status: number, json: unknown, headers: Record<string, string> = {}) => ({ status, json, headers, text: '' });

  it('accepts expiresIn and expires_in', () => {
    assert.deepEqual(readTokenA(res(200, { access_token: 't', expiresIn: 60 })), { ok: true, value: 't', expiresInMs: 60_000 });
    assert.deepEqual(readTokenA(res(200, { access_token: 't', expires_in: '120' })), { ok: true, value: 't', expiresInMs: 120_000 });
    assert.equal(readTokenA(res(200, { token: 't' })).ok, false);
  });

  it('reads the B token from the header, falls back to the body, and checks the echo', () => {
    const sent = newTransactionDetail();
    assert.match(sent.TransactionTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const body = { TransactionDetail: sent, TransactionResult: { ResultID: 'CM000' }, AuthenticationDetail: { Token: 'from-body' } };
    assert.deepEqual(readTokenB(res(200, body, { authorization: 'from-header' }), sent), { ok: true, value: 'from-header', expiresInMs: 86_400_000 });
    assert.equal((readTokenB(res(200, body), sent) as { value: string }).value, 'from-body');
    const other = { ...body, TransactionDetail: { ...sent, ServiceTransactionID: 'someone-else' } };
    assert.equal(readTokenB(res(200, other, { authorization: 'x' }), sent).ok, false);
  });

  it('reads codes of both error shapes and passes unknown codes through', () => {
    assert.deepEqual(readServiceCode({ error: { errorCode: '00040', errorMessage: 'expired' } }), { code: '00040', text: 'expired' });
    assert.equal(readServiceCode({ MatchResponse: { TransactionResult: { ResultID: 'SC999', ResultText: 'new', SeverityText: 'Error', ResultMessage: { ResultDescription: 'd' } } } }).code, 'SC999');
    assert.equal(readServiceCode({ TransactionResult: { ResultID: 'SC001', SeverityText: 'Fatal' } }).severity, 'Fatal');
    assert.deepEqual(readServiceCode({ error: 'invalid_client', error_description: 'no' }), { code: 'invalid_client', text: 'no' });
  });
});

describe('rate limiter', () => {
  it('never starts more than qps in a window nor more than concurrency at once', async () => {
    const l = new RateLimiter({ qps: 10, concurrency: 3 }, 200);
    const starts: number[] = [];
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        const release = await l.acquire();
        starts.push(Date.now());
        peak = Math.max(peak, ++active);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        release();
      }),
    );
    assert.ok(peak <= 3);
    for (let i = 10; i < starts.length; i++) assert.ok(starts[i] - starts[i - 10] >= 195, `window ${i}`);
    assert.deepEqual(l.state(), { qps: 10, concurrency: 3, active: 0, queued: 0 });
    l.dispose();
  });

  it('cancels waiters by signal and on dispose', async () => {
    const l = new RateLimiter({ qps: 0, concurrency: 1 });
    const held = await l.acquire();
    const ac = new AbortController();
    const a = l.acquire(ac.signal);
    const b = l.acquire();
    assert.equal(l.state().queued, 2);
    ac.abort();
    await assert.rejects(a, /cancelled/);
    l.dispose();
    await assert.rejects(b, /disposed/);
    held();
  });
});

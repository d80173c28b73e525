import * as assert from 'node:assert/strict';
import { readTokenA, readTokenB, newTransactionDetail } from '../../../src/core/protocol/protocol';

describe('protocol readers', () => {
  const res = (status: number, json: unknown, headers: Record<string, string> = {}) => ({ status, json, headers, text: '' });

  it('accepts expiresIn and expires_in', () => {
    assert.deepEqual(readTokenA(res(200, { access_token: 't', expiresIn: 60 })), { ok: true, value: 't', expiresInMs: 60_000 });
    assert.deepEqual(readTokenA(res(200, { access_token: 't', expires_in: '120' })), { ok: true, value: 't', expiresInMs: 120_000 });
    assert.equal(readTokenA(res(200, { token: 't' })).ok, false);
  });

  it('keeps a token life out of range within 24 hours instead of failing on a date', () => {
    for (const bad of [1e13, -5, 0, 'soon', Infinity, { x: 1 }]) {
      const r = readTokenA(res(200, { access_token: 't', expiresIn: bad }));
      assert.equal(r.ok, true, String(bad));
      assert.equal((r as { expiresInMs: number }).expiresInMs, 86_400_000, String(bad));
      assert.match((r as { note?: string }).note ?? '', /out of range/, String(bad));
      new Date(Date.now() + (r as { expiresInMs: number }).expiresInMs).toISOString();
    }
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
});
